import type { CampaignStatus } from '@platform/database';
import type { Queryable } from './fixtures';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export interface MessagingChannelFixture {
  channelID: string;
  accountID: string;
  phoneNumberID: string;
}

/** Campaign-area rows straight into the database (tests, demo seed, benchmarks). */
export class CampaignFixtures {
  constructor(private readonly dataSource: Queryable) {}

  async messagingChannel(tenantID: string, options: { status?: 'connected' | 'disconnected'; accountID?: string } = {}): Promise<MessagingChannelFixture> {
    const accountID = options.accountID ?? `10${Math.floor(Math.random() * 1e12)}`;
    const phoneNumberID = `20${Math.floor(Math.random() * 1e12)}`;
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO messaging_channels (tenant_id, channel, display_name, account_id, phone_number_id, credentials_ref, status)
       VALUES ($1, 'whatsapp', $2, $3, $4, $5, $6) RETURNING id`,
      [tenantID, `WhatsApp ${unique()}`, accountID, phoneNumberID, `secret:whatsapp/${accountID}`, options.status ?? 'connected'],
    );
    return { channelID: rows[0].id, accountID, phoneNumberID };
  }

  async campaign(tenantID: string, status: CampaignStatus, campaignModelID: string | null = null): Promise<string> {
    const rows: { id: string }[] = await this.dataSource.query(
      'INSERT INTO campaigns (tenant_id, campaign_model_id, name, status) VALUES ($1, $2, $3, $4) RETURNING id',
      [tenantID, campaignModelID, `Campaign ${unique()}`, status],
    );
    return rows[0].id;
  }

  /**
   * `count` campaign models named `${prefix}_<n>` in one statement, already
   * known to the provider (status as given), created a millisecond apart.
   */
  async campaignModels(
    tenantID: string,
    channelID: string,
    count: number,
    options: { prefix?: string; status?: string; type?: string; tags?: string[] } = {},
  ): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO campaign_models (tenant_id, channel, channel_id, name, type, language, status, external_id, tags, slots,
                                    processing_at, created_at, updated_at)
       SELECT $1, 'whatsapp', $2, $3 || '_' || n, $5, 'pt_BR', $6, ($8::bigint + n)::text, $7,
              '{"body":{"text":"Olá {{customer_name}}","variables":[{"key":"customer_name","fallback":"cliente"}]}}',
              now(), now() - make_interval(secs => ($4 - n) / 1000.0), now()
         FROM generate_series(1, $4::int) AS n`,
      [tenantID, channelID, options.prefix ?? `model_${unique()}`, count, options.type ?? 'UTILITY', options.status ?? 'approved', options.tags ?? [], 100_000_000_000_000 + Math.floor(Math.random() * 1e13)],
    );
  }
}
