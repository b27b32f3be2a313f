import { Injectable } from '@nestjs/common';
import type { CampaignModelStatus } from '@platform/database';
import { DataSource, EntityManager } from 'typeorm';
import type { CampaignModelView } from './campaign-model.dto';
import type { Slots } from './template-content';

/** The API's names for a campaign_models row `m` (SPEC.md, Campaign model). */
export const VIEW_COLUMNS = `
  m.id AS "campaignModelID", m.tenant_id AS "tenantID", m.channel AS "campaignModelChannel",
  m.channel_id AS "campaignModelChannelID", m.name AS "campaignModelName", m.type AS "campaignModelType",
  m.description AS "campaignModelDescription", m.status AS "campaignModelStatus", m.external_id AS "campaignModelExternalID",
  m.gateway_meta AS "campaignModelGatewayMeta", m.gateway_raw AS "campaignModelGatewayRaw", m.meta AS "campaignModelMeta",
  m.tags AS "campaignModelTags", m.slots AS "campaignModelSlots", m.model_variables AS "modelVariables",
  m.approved_at AS "approvedAt", m.evaluating_at AS "evaluatingAt", m.processing_at AS "processingAt", m.refused_at AS "refusedAt",
  m.created_at AS "createdAt", m.updated_at AS "updatedAt", m.deleted_at AS "deletedAt",
  m.created_by AS "createdBy", m.updated_by AS "updatedBy",
  m.error_code AS "__campaignModelErrorCode", m.error_message AS "__campaignModelErrorMessage"`;

export interface ConnectedChannel {
  id: string;
  channel: string;
  accountId: string;
  credentialsRef: string;
}

export interface NewCampaignModel {
  tenantID: string;
  channel: string;
  channelID: string;
  type: string;
  description: string | null;
  language: string;
  gatewayMeta: Record<string, unknown>;
  meta: Record<string, unknown>;
  tags: string[];
  slots: Slots;
  modelVariables: unknown[];
  createdBy: string;
}

/** What the submission needs of a model and its channel. */
export interface SubmissionSubject {
  id: string;
  status: CampaignModelStatus;
  name: string;
  language: string;
  type: string;
  slots: Slots;
  accountId: string;
  credentialsRef: string;
}

/** Raw SQL of campaign models outside the list (campaign-models-list.repository.ts). */
@Injectable()
export class CampaignModelsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findConnectedChannel(tenantID: string, channelID: string): Promise<ConnectedChannel | undefined> {
    const rows: ConnectedChannel[] = await this.dataSource.query(
      `SELECT id, channel, account_id AS "accountId", credentials_ref AS "credentialsRef"
         FROM messaging_channels WHERE id = $1 AND tenant_id = $2 AND status = 'connected'`,
      [channelID, tenantID],
    );
    return rows[0];
  }

  /** Names of the channel that `base` or its suffixed forms may collide with (a hint; the unique index decides). */
  async namesSharingPrefix(manager: EntityManager, tenantID: string, channelID: string, prefix: string): Promise<string[]> {
    const escaped = prefix.replace(/[\\%_]/g, (character) => `\\${character}`);
    const rows: { name: string }[] = await manager.query(
      `SELECT name FROM campaign_models WHERE tenant_id = $1 AND channel_id = $2 AND name LIKE $3`,
      [tenantID, channelID, `${escaped}%`],
    );
    return rows.map((row) => row.name);
  }

  /** Inserts the model under `name`, awaiting submission; a taken name raises the unique violation. */
  async insert(manager: EntityManager, model: NewCampaignModel, name: string): Promise<string> {
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO campaign_models (tenant_id, channel, channel_id, name, type, description, language, status,
                                    gateway_meta, meta, tags, slots, model_variables, processing_at, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'awaiting_submission', $8, $9, $10, $11, $12, now(), $13, $13)
       RETURNING id`,
      [
        model.tenantID,
        model.channel,
        model.channelID,
        name,
        model.type,
        model.description,
        model.language,
        JSON.stringify(model.gatewayMeta),
        JSON.stringify(model.meta),
        model.tags,
        JSON.stringify(model.slots),
        JSON.stringify(model.modelVariables),
        model.createdBy,
      ],
    );
    return rows[0].id;
  }

  async findView(tenantID: string, campaignModelID: string): Promise<(CampaignModelView & { language: string }) | undefined> {
    const rows: (CampaignModelView & { language: string })[] = await this.dataSource.query(
      `SELECT ${VIEW_COLUMNS}, m.language FROM campaign_models m WHERE m.id = $1 AND m.tenant_id = $2 AND m.deleted_at IS NULL`,
      [campaignModelID, tenantID],
    );
    return rows[0];
  }

  /** Operation 3: only meta and tags (each when given), plus updatedAt/updatedBy. */
  async updateMetaAndTags(
    tenantID: string,
    campaignModelID: string,
    changes: { meta?: Record<string, unknown>; tags?: string[] },
    operatorID: string,
  ): Promise<CampaignModelView | undefined> {
    const rows: CampaignModelView[] = await this.dataSource.query(
      `UPDATE campaign_models m
          SET meta = COALESCE($3::jsonb, m.meta), tags = COALESCE($4::text[], m.tags), updated_at = now(), updated_by = $5
        WHERE m.id = $1 AND m.tenant_id = $2 AND m.deleted_at IS NULL
        RETURNING ${VIEW_COLUMNS}`,
      [campaignModelID, tenantID, changes.meta === undefined ? null : JSON.stringify(changes.meta), changes.tags ?? null, operatorID],
    );
    // TypeORM answers an UPDATE ... RETURNING as [rows, affected].
    const returned = Array.isArray(rows[0]) ? (rows[0] as unknown as CampaignModelView[]) : rows;
    return returned[0];
  }

  async findSubmissionSubject(campaignModelID: string): Promise<SubmissionSubject | undefined> {
    const rows: SubmissionSubject[] = await this.dataSource.query(
      `SELECT m.id, m.status, m.name, m.language, m.type, m.slots, c.account_id AS "accountId", c.credentials_ref AS "credentialsRef"
         FROM campaign_models m JOIN messaging_channels c ON c.id = m.channel_id
        WHERE m.id = $1`,
      [campaignModelID],
    );
    return rows[0];
  }

  /** The provider holds the template: its id, the status it reported and the matching timestamp. */
  async recordAccepted(campaignModelID: string, externalID: string, status: CampaignModelStatus, raw: Record<string, unknown>): Promise<void> {
    await this.dataSource.query(
      `UPDATE campaign_models
          SET status = $2, external_id = $3, gateway_raw = $4, submission_attempts = submission_attempts + 1,
              evaluating_at = CASE WHEN $2 = 'evaluating' THEN now() ELSE evaluating_at END,
              approved_at = CASE WHEN $2 = 'approved' THEN now() ELSE approved_at END,
              refused_at = CASE WHEN $2 = 'refused' THEN now() ELSE refused_at END,
              updated_at = now()
        WHERE id = $1 AND status = 'awaiting_submission'`,
      [campaignModelID, status, externalID, JSON.stringify(raw)],
    );
  }

  async recordRefused(campaignModelID: string, errorCode: number, errorMessage: string, raw: Record<string, unknown>): Promise<void> {
    await this.dataSource.query(
      `UPDATE campaign_models
          SET status = 'refused', refused_at = now(), error_code = $2, error_message = $3, gateway_raw = $4,
              submission_attempts = submission_attempts + 1, updated_at = now()
        WHERE id = $1 AND status = 'awaiting_submission'`,
      [campaignModelID, errorCode, errorMessage, JSON.stringify(raw)],
    );
  }

  async recordUnavailable(campaignModelID: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE campaign_models SET submission_attempts = submission_attempts + 1 WHERE id = $1 AND status = 'awaiting_submission'`,
      [campaignModelID],
    );
  }
}
