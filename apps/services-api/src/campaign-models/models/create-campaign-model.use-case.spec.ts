import type { AuditTrail } from '@platform/audit';
import { AppException } from '@platform/errors';
import { OperatorPrincipal, TenantScope, trustedTenantScope } from '@platform/auth';
import type { CampaignModelStatus, SqlRunner } from '@platform/database';
import { describe, expect, it } from 'vitest';
import { fake, FakeTenantAccess, RecordingWebhookEvents } from '@platform/testing';
import { NO_IDEMPOTENCY_KEY } from '@platform/idempotency';
import { campaignModelDto } from '../../../test/doubles/campaign-models.fakes';
import type { CampaignModelsRepository, ConnectedChannel, ModelStatusChange, NewCampaignModel, SubmissionSubject } from './campaign-models.repository';
import { CreateCampaignModelCommand, CreateCampaignModelUseCase } from './create-campaign-model.use-case';
import type { MessageTemplateProvider, ProviderTemplate, SubmissionOutcome } from './message-templates/message-template.provider';
import { TemplateSubmission } from './template-submission';
import type { TemplateSubmissionJobs } from './template-submission.job';

const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const channelID = '7a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
const principal: OperatorPrincipal = { kind: 'operator', operatorID: '9c8b7a6d-5e4f-4321-8abc-def012345678' };

interface StoredModel extends NewCampaignModel {
  id: string;
  tenantID: string;
  name: string;
  status: CampaignModelStatus;
  externalID: string | null;
  /** The transaction it was inserted in; committed when that transaction ended without error. */
  runner: SqlRunner;
}

/** Campaign models and their channel as the repository keeps them: one transaction at a time, names unique per channel. */
class FakeModels {
  readonly channels: ConnectedChannel[] = [{ id: channelID, channel: 'whatsapp', accountID: 'waba-1', credentialsRef: 'vault:waba-1' }];
  readonly models: StoredModel[] = [];
  /** Names a concurrent create takes between our read of the names and our insert. */
  readonly takenConcurrently = new Set<string>();
  readonly scopes: TenantScope[] = [];
  /** The transaction of each status change recorded. */
  readonly statusRunners: SqlRunner[] = [];

  asRepository(): CampaignModelsRepository {
    return fake<CampaignModelsRepository>({
      transaction: async <T>(work: (runner: SqlRunner) => Promise<T>): Promise<T> => {
        const runner: SqlRunner = { query: async () => [] };
        const before = this.models.length;
        try {
          return await work(runner);
        } catch (error) {
          this.models.splice(before);
          throw error;
        }
      },
      findConnectedChannel: async (scope: TenantScope, id: string) => {
        this.scopes.push(scope);
        return this.channels.find((channel) => channel.id === id);
      },
      namesSharingPrefix: async (_runner: SqlRunner, scope: TenantScope, id: string, prefix: string) =>
        this.models.filter((model) => model.tenantID === scope.tenantID && model.channelID === id && model.name.startsWith(prefix)).map((model) => model.name),
      insertUnlessNameTaken: async (runner: SqlRunner, scope: TenantScope, model: NewCampaignModel, name: string) => {
        const clash = this.models.some((stored) => stored.tenantID === scope.tenantID && stored.channelID === model.channelID && stored.name === name);
        if (clash || this.takenConcurrently.has(name)) return undefined;
        const id = `model-${this.models.length + 1}`;
        this.models.push({ ...model, id, tenantID: scope.tenantID, name, status: 'awaiting_submission', externalID: null, runner });
        return id;
      },
      findView: async (scope: TenantScope, id: string) => {
        const model = this.models.find((stored) => stored.id === id && stored.tenantID === scope.tenantID);
        if (!model) return undefined;
        const view = campaignModelDto({
          campaignModelID: model.id,
          tenantID: model.tenantID,
          campaignModelChannelID: model.channelID,
          campaignModelName: model.name,
          campaignModelStatus: model.status,
          campaignModelExternalID: model.externalID,
        });
        return { ...view, language: model.language };
      },
      findSubmissionSubject: async (id: string): Promise<SubmissionSubject | undefined> => {
        const model = this.models.find((stored) => stored.id === id);
        if (!model) return undefined;
        const { accountID, credentialsRef } = this.channels[0];
        return {
          id,
          tenantID: model.tenantID,
          status: model.status,
          name: model.name,
          language: model.language,
          type: model.type,
          slots: model.slots,
          accountID,
          credentialsRef,
        };
      },
      recordAccepted: async (runner: SqlRunner, id: string, externalID: string, status: CampaignModelStatus) => this.update(runner, id, { status, externalID }),
      recordRefused: async (runner: SqlRunner, id: string) => this.update(runner, id, { status: 'refused' }),
      recordUnavailable: async () => undefined,
    });
  }

  private update(runner: SqlRunner, id: string, changes: Partial<StoredModel> & { status: CampaignModelStatus }): ModelStatusChange | undefined {
    const model = this.models.find((stored) => stored.id === id && stored.status === 'awaiting_submission');
    if (!model) return undefined;
    Object.assign(model, changes);
    this.statusRunners.push(runner);
    return { campaignModelID: id, tenantID: model.tenantID, name: model.name, previousStatus: 'awaiting_submission', status: changes.status };
  }
}

/** The message-template provider port, answering what the test says. */
class FakeProvider implements MessageTemplateProvider {
  readonly submitted: ProviderTemplate[] = [];
  outcome: SubmissionOutcome = { kind: 'accepted', externalID: 'tpl-1', providerStatus: 'PENDING', raw: {} };

  async submit(_account: unknown, template: ProviderTemplate): Promise<SubmissionOutcome> {
    this.submitted.push(template);
    return this.outcome;
  }
}

/** The submission jobs, as enqueued in the create's transaction. */
class FakeJobs {
  readonly enqueued: { runner: SqlRunner; campaignModelID: string }[] = [];

  asJobs(): TemplateSubmissionJobs {
    return fake<TemplateSubmissionJobs>({
      enqueueFirst: async (runner: SqlRunner, campaignModelID: string) => {
        this.enqueued.push({ runner, campaignModelID });
      },
    });
  }
}

function setUp(options: { refuseAccess?: boolean } = {}) {
  const models = new FakeModels();
  const provider = new FakeProvider();
  const jobs = new FakeJobs();
  const access = new FakeTenantAccess();
  if (options.refuseAccess) access.refusal = 'Forbidden';
  const repository = models.asRepository();
  const webhooks = new RecordingWebhookEvents();
  const submission = new TemplateSubmission(repository, provider, webhooks.asEvents());
  const useCase = new CreateCampaignModelUseCase(access.asAccess(), repository, submission, jobs.asJobs(), fake<AuditTrail>({ record: async () => undefined }));
  const create = (overrides: Partial<CreateCampaignModelCommand> = {}) =>
    useCase.execute({
      principal,
      tenantID,
      idempotency: NO_IDEMPOTENCY_KEY,
      channel: 'whatsapp',
      channelID,
      name: 'Order update',
      type: 'UTILITY',
      slots: { body: { text: 'Your order is on its way' } },
      ...overrides,
    });
  return { models, provider, jobs, checked: () => access.checks.map((check) => check.tenantID), webhooks, create };
}

const codeOf = (error: unknown) => (error instanceof AppException ? { status: error.status, code: error.code } : error);

describe('CreateCampaignModelUseCase (operation 2)', () => {
  it('reserves the normalised name, stores the model with its submission job in one transaction and submits it', async () => {
    const { models, provider, jobs, checked, create } = setUp();

    const created = await create();

    expect(checked()).toEqual([tenantID]);
    expect(models.models).toHaveLength(1);
    const [stored] = models.models;
    expect(stored).toMatchObject({ name: 'order_update', language: 'pt_BR', createdBy: principal.operatorID, channel: 'whatsapp' });
    expect(jobs.enqueued).toEqual([{ runner: stored.runner, campaignModelID: stored.id }]);
    expect(provider.submitted.map((template) => template.name)).toEqual(['order_update']);
    expect(created).toMatchObject({ campaignModelID: stored.id, campaignModelName: 'order_update', campaignModelStatus: 'evaluating' });
    expect(created).not.toHaveProperty('language');
  });

  it('emits campaignModel.statusChanged, in the transaction that records the provider\'s answer', async () => {
    const { models, provider, webhooks, create } = setUp();
    await create();
    provider.outcome = { kind: 'refused', errorCode: 2388299, errorMessage: 'Invalid parameter', raw: {} };
    await create({ name: 'Refused' });

    const [accepted, refused] = models.models;
    expect(webhooks.events.map(({ tenantID, event }) => ({ tenantID, event }))).toEqual([
      {
        tenantID,
        event: {
          type: 'campaignModel.statusChanged',
          subject: `campaignModel:${accepted.id}`,
          data: { campaignModelID: accepted.id, name: 'order_update', previousStatus: 'awaiting_submission', status: 'evaluating', reason: null },
        },
      },
      {
        tenantID,
        event: {
          type: 'campaignModel.statusChanged',
          subject: `campaignModel:${refused.id}`,
          data: { campaignModelID: refused.id, name: 'refused', previousStatus: 'awaiting_submission', status: 'refused', reason: 'Invalid parameter' },
        },
      },
    ]);
    expect(webhooks.events.map(({ runner }) => runner)).toEqual(models.statusRunners);
    expect(new Set(models.statusRunners).size).toBe(2);
  });

  it('emits nothing while the model awaits submission', async () => {
    const { provider, webhooks, create } = setUp();
    provider.outcome = { kind: 'unavailable', reason: 'timeout' };
    await create();
    expect(webhooks.events).toEqual([]);
  });

  it('takes the first free suffix when the name is taken on the channel', async () => {
    const { create } = setUp();
    await create();
    await create();
    const third = await create();
    expect(third.campaignModelName).toBe('order_update_3');
  });

  it('tries the next suffix when a concurrent create took the name after it was read', async () => {
    const { models, jobs, create } = setUp();
    models.takenConcurrently.add('order_update');

    const created = await create();

    expect(created.campaignModelName).toBe('order_update_2');
    expect(jobs.enqueued).toHaveLength(1);
  });

  it('answers 409 1066 when every suffix is taken, and stores nothing', async () => {
    const { models, jobs, provider, create } = setUp();
    for (let suffix = 1; suffix <= 100; suffix += 1) models.takenConcurrently.add(suffix === 1 ? 'order_update' : `order_update_${suffix}`);

    await expect(create().catch(codeOf)).resolves.toEqual({ status: 409, code: 1066 });
    expect(models.models).toEqual([]);
    expect(jobs.enqueued).toEqual([]);
    expect(provider.submitted).toEqual([]);
  });

  it('answers 409 1066 for a name with nothing valid left', async () => {
    const { create } = setUp();
    await expect(create({ name: '!!!' }).catch(codeOf)).resolves.toEqual({ status: 409, code: 1066 });
  });

  it('keeps the model awaiting submission, with its job, when the provider is unavailable', async () => {
    const { models, provider, jobs, create } = setUp();
    provider.outcome = { kind: 'unavailable', reason: 'timeout' };

    const created = await create();

    expect(created.campaignModelStatus).toBe('awaiting_submission');
    expect(models.models[0].status).toBe('awaiting_submission');
    expect(jobs.enqueued).toHaveLength(1);
  });

  it('checks access first: a refused caller reads and stores nothing', async () => {
    const { models, create } = setUp({ refuseAccess: true });
    await expect(create().catch(codeOf)).resolves.toEqual({ status: 403, code: 1004 });
    expect(models.scopes).toEqual([]);
    expect(models.models).toEqual([]);
  });

  it('refuses a channel not connected on the tenant, a mismatched channel and a malformed language (400 1002)', async () => {
    const { models, create } = setUp();
    await expect(create({ channelID: '00000000-0000-4000-8000-000000000000' }).catch(codeOf)).resolves.toEqual({ status: 400, code: 1002 });
    await expect(create({ channel: 'telegram' }).catch(codeOf)).resolves.toEqual({ status: 400, code: 1002 });
    await expect(create({ gatewayMeta: { language: 'portuguese' } }).catch(codeOf)).resolves.toEqual({ status: 400, code: 1002 });
    expect(models.models).toEqual([]);
  });

  it('reads the channel within the checked scope', async () => {
    const { models, create } = setUp();
    await create();
    expect(models.scopes).toEqual([trustedTenantScope(tenantID)]);
  });
});
