import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { OperatorPrincipal, TenantAccessService, TenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import { AppException } from '@platform/errors';
import type { IdempotencyKeyClaim } from '@platform/idempotency';
import { candidateName, firstFreeSuffix, MAX_NAME_LENGTH, MAX_NAME_SUFFIX, normaliseTemplateName } from './campaign-model-name';
import type { CampaignModelDto } from './campaign-model.dto';
import { CampaignModelsRepository, NewCampaignModel } from './campaign-models.repository';
import { TemplateSubmission } from './template-submission';
import { TemplateSubmissionJobs } from './template-submission.job';
import { modelVariablesOf, Slots } from './template-content';

export const DEFAULT_TEMPLATE_LANGUAGE = 'pt_BR';
const LANGUAGE_CODE = /^[a-z]{2,3}(_[A-Z]{2})?$/;

export interface CreateCampaignModelCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  /** The messaging channel kind; must be the kind of channelID's channel. */
  channel: string;
  /** A messaging channel of the tenant, checked to be connected. */
  channelID: string;
  /** The name as asked for, before normalisation. */
  name: string;
  type: string;
  description?: string;
  /** Provider settings; `language` is checked here, other members are kept as given. */
  gatewayMeta?: Record<string, unknown>;
  meta?: Record<string, unknown>;
  slots: Slots;
  tags?: string[];
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

  async execute(command: CreateCampaignModelCommand): Promise<CampaignModelDto> {
    const { principal } = command;
    const scope = await this.access.require(principal, command.tenantID);
    await command.idempotency.claimKey();
    const gatewayMeta = { ...(command.gatewayMeta ?? {}) };
    const language = gatewayMeta.language ?? DEFAULT_TEMPLATE_LANGUAGE;
    if (typeof language !== 'string' || !LANGUAGE_CODE.test(language)) {
      throw AppException.validation([
        { field: 'campaignModelGatewayMeta.language', received: String(gatewayMeta.language), allowed: 'language code such as pt_BR or en' },
      ]);
    }
    gatewayMeta.language = language;

    // 400 1002 names the request's fields, as the pipe does.
    const channel = await this.models.findConnectedChannel(scope, command.channelID);
    if (!channel) {
      throw AppException.validation([
        { field: 'campaignModelChannelID', received: command.channelID, allowed: 'a messaging channel connected on this tenant' },
      ]);
    }
    if (channel.channel !== command.channel) {
      throw AppException.validation([
        { field: 'campaignModelChannel', received: command.channel, allowed: `the channel of campaignModelChannelID (${channel.channel})` },
      ]);
    }

    const base = normaliseTemplateName(command.name);
    if (!base) throw new AppException('CampaignModelNameUnavailable');

    // Slots are stored as validated JSON (class instances would carry nothing more).
    const slots = JSON.parse(JSON.stringify(command.slots)) as Slots;
    const model: NewCampaignModel = {
      channel: channel.channel,
      channelID: channel.id,
      type: command.type,
      description: command.description ?? null,
      language,
      gatewayMeta,
      meta: command.meta ?? {},
      tags: command.tags ?? [],
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
