import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { OperatorPrincipal, TenantAccessService, TenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import { AppException } from '@platform/errors';
import type { IdempotencyKeyClaim } from '@platform/idempotency';
import { candidateName, firstFreeSuffix, MAX_NAME_LENGTH, MAX_NAME_SUFFIX, normaliseTemplateName } from './campaign-model-name';
import type { CampaignModelView, CreateCampaignModelBody } from './campaign-model.dto';
import { CampaignModelsRepository, NewCampaignModel } from './campaign-models.repository';
import { TemplateSubmission } from './template-submission';
import { TemplateSubmissionJobs } from './template-submission.job';
import { modelVariablesOf, Slots } from './template-content';

export const DEFAULT_TEMPLATE_LANGUAGE = 'pt_BR';
const LANGUAGE_CODE = /^[a-z]{2,3}(_[A-Z]{2})?$/;

export interface CreateCampaignModelCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  body: CreateCampaignModelBody;
  /** Claimed right after the access check (docs/idempotency.md, check order). */
  idempotency: IdempotencyKeyClaim;
}

/**
 * Operation 2: check the caller's access, validate what the DTO cannot (the
 * channel is connected on this tenant, the template language), reserve the
 * first free name, store the model with its submission job in one
 * transaction, then submit it to the provider once right away.
 */
@Injectable()
export class CreateCampaignModelUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly models: CampaignModelsRepository,
    private readonly submission: TemplateSubmission,
    private readonly jobs: TemplateSubmissionJobs,
    private readonly audit: AuditTrail,
  ) {}

  async execute({ principal, tenantID, body, idempotency }: CreateCampaignModelCommand): Promise<CampaignModelView> {
    const scope = await this.access.require(principal, tenantID);
    await idempotency.claimKey();
    const gatewayMeta = { ...(body.campaignModelGatewayMeta ?? {}) };
    const language = gatewayMeta.language ?? DEFAULT_TEMPLATE_LANGUAGE;
    if (typeof language !== 'string' || !LANGUAGE_CODE.test(language)) {
      throw AppException.validation([
        { field: 'campaignModelGatewayMeta.language', received: String(gatewayMeta.language), allowed: 'language code such as pt_BR or en' },
      ]);
    }
    gatewayMeta.language = language;

    const channel = await this.models.findConnectedChannel(scope, body.campaignModelChannelID);
    if (!channel) {
      throw AppException.validation([
        { field: 'campaignModelChannelID', received: body.campaignModelChannelID, allowed: 'a messaging channel connected on this tenant' },
      ]);
    }
    if (channel.channel !== body.campaignModelChannel) {
      throw AppException.validation([
        { field: 'campaignModelChannel', received: body.campaignModelChannel, allowed: `the channel of campaignModelChannelID (${channel.channel})` },
      ]);
    }

    const base = normaliseTemplateName(body.campaignModelName);
    if (!base) throw new AppException('CampaignModelNameUnavailable');

    // Slots are stored as validated JSON (class instances would carry nothing more).
    const slots = JSON.parse(JSON.stringify(body.campaignModelSlots)) as Slots;
    const model: NewCampaignModel = {
      channel: channel.channel,
      channelID: channel.id,
      type: body.campaignModelType,
      description: body.campaignModelDescription ?? null,
      language,
      gatewayMeta,
      meta: body.campaignModelMeta ?? {},
      tags: body.campaignModelTags ?? [],
      slots,
      modelVariables: modelVariablesOf(slots),
      createdBy: principal.operatorID,
    };
    const campaignModelID = await this.models.transaction((runner) => this.store(runner, scope, model, base));

    await this.submission.submit(campaignModelID);
    const view = await this.models.findView(scope, campaignModelID);
    if (!view) throw new Error(`campaign model ${campaignModelID} vanished after its creation`);
    const { language: _language, ...campaignModel } = view;
    return campaignModel;
  }

  /**
   * Inserts the model under the first free name and enqueues its submission
   * job, and records `campaignModel.created` in the audit log, in one transaction. The unique index on (tenant, channel, name)
   * decides who gets a name: a concurrent create that took it makes the
   * insert fail, and the next suffix is tried.
   */
  private async store(runner: SqlRunner, scope: TenantScope, model: NewCampaignModel, base: string): Promise<string> {
    const prefix = base.slice(0, MAX_NAME_LENGTH - `_${MAX_NAME_SUFFIX}`.length);
    const taken = await this.models.namesSharingPrefix(runner, scope, model.channelID, prefix);
    for (let suffix = firstFreeSuffix(base, taken); suffix <= MAX_NAME_SUFFIX; suffix += 1) {
      const id = await this.models.insertUnlessNameTaken(runner, scope, model, candidateName(base, suffix));
      if (id === undefined) continue;
      await this.jobs.enqueueFirst(runner, id);
      await this.audit.record(runner, scope, {
        action: 'campaignModel.created',
        targetID: id,
        summary: { campaignModelName: candidateName(base, suffix), campaignModelType: model.type, campaignModelChannelID: model.channelID },
      });
      return id;
    }
    throw new AppException('CampaignModelNameUnavailable');
  }
}
