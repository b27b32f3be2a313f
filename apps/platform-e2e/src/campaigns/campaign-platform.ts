import { CampaignFixtures, MessagingChannelFixture, WhatsAppTemplateStub } from '@platform/testing';
import { startPlatform, TestPlatform } from '../support/platform';
import { eventually } from '../support/eventually';

export const APP_SECRET = 'test-app-secret-0123456789';

/** services-api against the local template-provider stub, with a tenant, its operators and a connected channel. */
export interface CampaignPlatform {
  platform: TestPlatform;
  stub: WhatsAppTemplateStub;
  campaigns: CampaignFixtures;
  tenantID: string;
  otherTenantID: string;
  channel: MessagingChannelFixture;
  owner: { operatorID: string; token: string };
  member: { operatorID: string; token: string };
  outsider: { operatorID: string; token: string };
  close(): Promise<void>;
}

export async function startCampaignPlatform(env: Record<string, string> = {}): Promise<CampaignPlatform> {
  const stub = await WhatsAppTemplateStub.start();
  const platform = await startPlatform({
    apps: ['services-api'],
    env: {
      WHATSAPP_API_BASE_URL: stub.baseUrl,
      WHATSAPP_ACCESS_TOKEN: 'test-system-user-token',
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_WEBHOOK_VERIFY_TOKEN: 'subscribe-token-0123456789',
      WHATSAPP_TIMEOUT_MS: '5000',
      TEMPLATE_SUBMISSION_RETRY_SECONDS: '1',
      TEMPLATE_SUBMISSION_RETRY_MAX_SECONDS: '2',
      JOBS_POLLING_INTERVAL_MS: '500',
      ...env,
    },
  });
  const { fixtures } = platform;
  const campaigns = new CampaignFixtures(platform.dataSource);
  const tenantID = await fixtures.tenant();
  const otherTenantID = await fixtures.tenant();
  const operator = async (tenant: string, role: 'owner' | 'member') => {
    const created = await fixtures.operator();
    await fixtures.membership(tenant, created.operatorID, role);
    return { operatorID: created.operatorID, token: await platform.tokenFor(created.operatorID) };
  };
  const owner = await operator(tenantID, 'owner');
  const member = await operator(tenantID, 'member');
  const outsider = await operator(otherTenantID, 'owner');
  const channel = await campaigns.messagingChannel(tenantID);
  return {
    platform,
    stub,
    campaigns,
    tenantID,
    otherTenantID,
    channel,
    owner,
    member,
    outsider,
    async close() {
      await platform.close();
      await stub.close();
    },
  };
}

/** A valid create body on `channelID`, with `overrides` merged in. */
export function modelBody(channelID: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    campaignModelChannel: 'whatsapp',
    campaignModelChannelID: channelID,
    campaignModelName: 'Order update',
    campaignModelType: 'UTILITY',
    campaignModelDescription: 'Sent when an order ships',
    campaignModelGatewayMeta: { language: 'pt_BR' },
    campaignModelMeta: { team: 'logistics' },
    campaignModelTags: ['pedidos'],
    campaignModelSlots: {
      header: { type: 'text', text: 'Pedido {{order_id}}', variables: [{ id: 'h1', key: 'order_id', type: 'text', fallback: '' }] },
      body: {
        content: '<p>Olá {{customer_name}}</p>',
        text: 'Olá {{customer_name}}, seu pedido {{order_id}} foi enviado.',
        variables: [
          { id: 'b1', key: 'customer_name', type: 'text', fallback: 'cliente' },
          { id: 'b2', key: 'order_id', type: 'text', fallback: '' },
        ],
      },
      footer: { text: 'Acme Atendimento' },
      buttons: [{ type: 'URL', text: 'Ver pedido', url: 'https://acme.com.br/pedidos/{{1}}', example: 'A1B2C3' }],
    },
    ...overrides,
  };
}

export function authorized(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...extra };
}

/** Reads a model until `done` holds (background work) and returns it; past the deadline, fails showing the last state read. */
export async function readModelUntil(
  context: CampaignPlatform,
  campaignModelID: string,
  done: (model: Record<string, any>) => boolean,
): Promise<Record<string, any>> {
  return eventually(async () => {
    const { data } = await context.platform.api.services.GET('/v1/tenants/{tenantID}/campaigns-models/{campaignModelID}', {
      params: { path: { tenantID: context.tenantID, campaignModelID } },
      headers: authorized(context.owner.token),
    });
    const model: Record<string, any> = data!.campaignModel;
    if (!done(model)) throw new Error(`model ${campaignModelID} has not reached the expected state; last: ${JSON.stringify(model)}`);
    return model;
  });
}

/** The published error bodies, exactly (libs/errors/src/catalog.ts, docs/errors.md). */
export const ERRORS = {
  missingTenantID: { statusCode: 400, error: 'MissingTenantIDError', error_code: 1001, message: 'tenantID is required.' },
  unauthorized: { statusCode: 401, error: 'UnauthorizedError', error_code: 1003, message: 'You are not authorized to perform this request.' },
  forbidden: { statusCode: 403, error: 'ForbiddenError', error_code: 1004, message: 'You do not have access to this resource.' },
  modelNotFound: { statusCode: 404, error: 'CampaignModelNotFoundError', error_code: 1058, message: 'Campaign model not found.' },
  nameUnavailable: {
    statusCode: 409,
    error: 'CampaignModelNameUnavailableError',
    error_code: 1066,
    message: 'Could not derive an available campaignModelName for this channel.',
  },
  unknown: { statusCode: 500, error: 'UnknownError', error_code: 5999, message: 'For some unknown reason your request has not succeeded.' },
  validation: (fields: { field: string; received: string; allowed: string }[]) => ({
    statusCode: 400,
    error: 'RequestValidationError',
    error_code: 1002,
    message: 'Invalid request data.',
    fields,
  }),
};

/** A tenant that does not exist. */
export const UNKNOWN_ID = '5f0c8a8e-3a1b-4c2d-9e8f-0a1b2c3d4e5f';

