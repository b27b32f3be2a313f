import { Inject, Injectable } from '@nestjs/common';
import { AppException, violatedUniqueConstraint } from '@platform/errors';
import type PgBoss from 'pg-boss';
import { DataSource } from 'typeorm';
import { jobDatabaseOf, PG_BOSS } from '../jobs/pg-boss.provider';
import { candidateName, firstFreeSuffix, MAX_NAME_LENGTH, MAX_NAME_SUFFIX, normaliseTemplateName } from './campaign-model-name';
import type { CampaignModelView, CreateCampaignModelBody } from './campaign-model.dto';
import { CampaignModelsRepository, NewCampaignModel } from './campaign-models.repository';
import { TemplateSubmission } from './template-submission';
import { TemplateSubmissionJobs } from './template-submission.job';
import { modelVariablesOf, Slots } from './template-content';

export const DEFAULT_TEMPLATE_LANGUAGE = 'pt_BR';
const LANGUAGE_CODE = /^[a-z]{2,3}(_[A-Z]{2})?$/;
const NAME_INDEX = 'campaign_models_tenant_channel_name_key';

/**
 * Operation 2: validate what the DTO cannot (the channel is connected on
 * this tenant, the template language), reserve the first free name, store
 * the model with its submission job in one transaction, then submit it to
 * the provider once right away.
 */
@Injectable()
export class CreateCampaignModel {
  constructor(
    private readonly dataSource: DataSource,
    private readonly models: CampaignModelsRepository,
    private readonly submission: TemplateSubmission,
    private readonly jobs: TemplateSubmissionJobs,
    @Inject(PG_BOSS) private readonly boss: PgBoss,
  ) {}

  async execute(tenantID: string, operatorID: string, body: CreateCampaignModelBody): Promise<CampaignModelView> {
    const gatewayMeta = { ...(body.campaignModelGatewayMeta ?? {}) };
    const language = gatewayMeta.language ?? DEFAULT_TEMPLATE_LANGUAGE;
    if (typeof language !== 'string' || !LANGUAGE_CODE.test(language)) {
      throw AppException.validation([
        { field: 'campaignModelGatewayMeta.language', received: String(gatewayMeta.language), allowed: 'language code such as pt_BR or en' },
      ]);
    }
    gatewayMeta.language = language;

    const channel = await this.models.findConnectedChannel(tenantID, body.campaignModelChannelID);
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
      tenantID,
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
      createdBy: operatorID,
    };
    const campaignModelID = await this.store(model, base);

    await this.submission.submit(campaignModelID);
    const view = await this.models.findView(tenantID, campaignModelID);
    if (!view) throw new Error(`campaign model ${campaignModelID} vanished after its creation`);
    const { language: _language, ...campaignModel } = view;
    return campaignModel;
  }

  /**
   * Inserts the model under the first free name and enqueues its submission
   * job, in one transaction. The unique index on (tenant, channel, name)
   * decides who gets a name: a concurrent create that took it makes the
   * insert fail, and the next suffix is tried from a savepoint.
   */
  private async store(model: NewCampaignModel, base: string): Promise<string> {
    return this.dataSource.transaction(async (manager) => {
      const prefix = base.slice(0, MAX_NAME_LENGTH - `_${MAX_NAME_SUFFIX}`.length);
      const taken = await this.models.namesSharingPrefix(manager, model.tenantID, model.channelID, prefix);
      for (let suffix = firstFreeSuffix(base, taken); suffix <= MAX_NAME_SUFFIX; suffix += 1) {
        await manager.query('SAVEPOINT reserve_name');
        let id: string;
        try {
          id = await this.models.insert(manager, model, candidateName(base, suffix));
        } catch (error) {
          if (violatedUniqueConstraint(error) !== NAME_INDEX) throw error;
          await manager.query('ROLLBACK TO SAVEPOINT reserve_name');
          continue;
        }
        await manager.query('RELEASE SAVEPOINT reserve_name');
        await this.boss.send(...this.jobs.firstJob(id, jobDatabaseOf(manager)));
        return id;
      }
      throw new AppException('CampaignModelNameUnavailable');
    });
  }
}
