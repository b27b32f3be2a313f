import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorized, CampaignPlatform, modelBody, startCampaignPlatform } from './campaign-platform';

const STORABLE_TEXT = 'text without U+0000 or unpaired surrogates (U+D800-U+DFFF)';
const validation = (field: string, received: string) => ({
  errors: [{ statusCode: 400, error: 'RequestValidationError', error_code: 1002, message: 'Invalid request data.', fields: [{ field, received, allowed: STORABLE_TEXT }] }],
});

/**
 * Text PostgreSQL cannot store (U+0000, unpaired surrogates) anywhere in a
 * request is a 400 1002 on that field, never a 500: body strings at any depth
 * and object keys, query values and path parameters. Operations 2 and 3 are
 * where it was found (a name holding U+0000 was a 500 5999).
 */
describe('text PostgreSQL cannot store', () => {
  let context: CampaignPlatform;
  let modelID: string;
  const send = (method: string, path: string, body?: string) =>
    fetch(`${context.platform.servicesUrl}${path}`, {
      method,
      headers: authorized(context.owner.token, body === undefined ? {} : { 'content-type': 'application/json' }),
      body,
    });
  const modelsPath = () => `/v1/tenants/${context.tenantID}/campaigns-models`;
  const expectRefused = async (response: Response, field: string, received: string) => {
    expect({ status: response.status, body: await response.json() }).toEqual({ status: 400, body: validation(field, received) });
  };

  beforeAll(async () => {
    context = await startCampaignPlatform();
    const created = await send('POST', modelsPath(), JSON.stringify(modelBody(context.channel.channelID, { campaignModelName: 'Storable text' })));
    expect(created.status).toBe(200);
    modelID = ((await created.json()) as { campaignModel: { campaignModelID: string } }).campaignModel.campaignModelID;
  });
  afterAll(() => context?.close());

  it.each([
    ['U+0000 in a name (operation 2)', { campaignModelName: 'Order\u0000update' }, 'campaignModelName', 'Order\\u0000update'],
    ['an unpaired high surrogate in a description', { campaignModelDescription: 'Sent \uD800 when' }, 'campaignModelDescription', 'Sent \\ud800 when'],
    ['an unpaired low surrogate deep in the slots', { campaignModelSlots: { body: { text: 'Olá \uDC00' } } }, 'campaignModelSlots.body.text', 'Olá \\udc00'],
    ['U+0000 in an object key of free-form metadata', { campaignModelMeta: { 'te\u0000am': 'x' } }, 'campaignModelMeta.te\\u0000am', 'te\\u0000am'],
    ['U+0000 in an array item', { campaignModelTags: ['ok', 'bad\u0000'] }, 'campaignModelTags.1', 'bad\\u0000'],
  ])('operation 2 refuses %s with 1002 on that field, and stores nothing', async (_case, overrides, field, received) => {
    const before = await context.platform.dataSource.query(`SELECT count(*)::int AS n FROM campaign_models WHERE tenant_id = $1`, [context.tenantID]);
    await expectRefused(await send('POST', modelsPath(), JSON.stringify(modelBody(context.channel.channelID, overrides))), field, received);
    const after = await context.platform.dataSource.query(`SELECT count(*)::int AS n FROM campaign_models WHERE tenant_id = $1`, [context.tenantID]);
    expect(after).toEqual(before);
  });

  it('operation 3 refuses U+0000 in metadata with 1002, and keeps the model as it was', async () => {
    await expectRefused(await send('PUT', `${modelsPath()}/${modelID}`, JSON.stringify({ campaignModelMeta: { note: '\u0000' } })), 'campaignModelMeta.note', '\\u0000');
    const read = await send('GET', `${modelsPath()}/${modelID}`);
    expect(((await read.json()) as { campaignModel: { campaignModelMeta: unknown } }).campaignModel.campaignModelMeta).toEqual({ team: 'logistics' });
  });

  it('a query value holding U+0000 (operation 4) is 1002 on that parameter', async () => {
    await expectRefused(await send('GET', `${modelsPath()}?search=a%00b`), 'search', 'a\\u0000b');
  });

  it('a path parameter holding U+0000 (operation 5) is 1002 on that parameter', async () => {
    await expectRefused(await send('GET', `${modelsPath()}/%00`), 'campaignModelID', '\\u0000');
  });

  it('a JSON string body holding an unpaired surrogate is 1002 on the body', async () => {
    await expectRefused(await send('POST', modelsPath(), '"\\ud800"'), 'body', 'string');
  });

  it('text that only looks alike is stored: a surrogate pair (emoji) and an escaped backslash-zero', async () => {
    const response = await send('PUT', `${modelsPath()}/${modelID}`, JSON.stringify({ campaignModelMeta: { note: '😀 \\u0000' } }));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { campaignModel: { campaignModelMeta: unknown } }).campaignModel.campaignModelMeta).toEqual({ note: '😀 \\u0000' });
  });
});
