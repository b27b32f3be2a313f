import { CampaignFixtures } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelBody } from '../campaigns/campaign-platform';
import { eventually, WAIT_LIMIT_MS } from '../support/eventually';
import { FaultPlatform, startFaultPlatform } from './harness/fault-platform';

/**
 * Operation 2 while the template provider is down or slow, through two
 * services-api replicas running as separate processes, one of which dies.
 */
describe('campaign models when the template provider fails (two replicas, one crashing)', () => {
  let platform: FaultPlatform;
  let tenantID: string;
  let channelID: string;
  let owner: string;

  const readThrough = async (servicesUrl: string, campaignModelID: string) =>
    (
      await platform.replica('services-api', servicesUrl).GET('/v1/tenants/{tenantID}/campaigns-models/{campaignModelID}', {
        params: { path: { tenantID, campaignModelID } },
        headers: { authorization: owner },
      })
    ).data?.campaignModel;
  const templatesNamed = (name: string) => [...platform.stubs.templates.templates.values()].filter((template) => template.name === name);

  beforeAll(async () => {
    platform = await startFaultPlatform({ replicas: { 'services-api': 2 } });
    tenantID = await platform.fixtures.tenant();
    channelID = (await new CampaignFixtures(platform.dataSource).messagingChannel(tenantID)).channelID;
    const operator = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, operator.operatorID, 'owner');
    owner = `Bearer ${await platform.tokenFor(operator.operatorID)}`;
  });
  afterAll(() => platform?.close());

  it('answers 200 awaiting_submission while the provider is down or slow, and submits each model once when it recovers, though the replica that took one died', async () => {
    const [crashing, surviving] = platform.replicas['services-api'];
    const create = (servicesUrl: string, name: string) =>
      platform.replica('services-api', servicesUrl).POST('/v1/tenants/{tenantID}/campaigns-models', {
        params: { path: { tenantID } },
        headers: { authorization: owner },
        body: modelBody(channelID, { campaignModelName: name }) as never,
      });

    platform.stubs.templates.mode = 'down';
    const down = await create(crashing.url, 'Provider down');
    expect(down.response.status).toBe(200);
    expect(down.data?.campaignModel).toMatchObject({ campaignModelName: 'provider_down', campaignModelStatus: 'awaiting_submission', campaignModelExternalID: null });
    // The replica dies before its background submission is due: the job is in PostgreSQL, the other replica runs it.
    crashing.kill('SIGKILL');
    await crashing.exited();

    platform.stubs.templates.mode = 'hang';
    const slow = await create(surviving.url, 'Provider slow');
    expect(slow.response.status).toBe(200);
    expect(slow.data?.campaignModel).toMatchObject({ campaignModelName: 'provider_slow', campaignModelStatus: 'awaiting_submission' });

    platform.stubs.templates.mode = 'accept';
    await eventually(async () => {
      for (const created of [down, slow]) expect((await readThrough(surviving.url, created.data!.campaignModel.campaignModelID))?.campaignModelStatus).toBe('evaluating');
    }, WAIT_LIMIT_MS, 250);
    for (const [created, name] of [[down, 'provider_down'], [slow, 'provider_slow']] as const) {
      const templates = templatesNamed(name);
      expect(templates).toHaveLength(1);
      expect(await readThrough(surviving.url, created.data!.campaignModel.campaignModelID)).toMatchObject({ campaignModelExternalID: templates[0].id });
    }

    // The crashed replica comes back and serves the same models.
    await crashing.start();
    expect(await readThrough(crashing.url, down.data!.campaignModel.campaignModelID)).toMatchObject({ campaignModelStatus: 'evaluating' });
  });
});
