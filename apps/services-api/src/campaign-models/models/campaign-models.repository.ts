import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { CampaignModelStatus, firstRow, rows, run, sql, SqlRunner, TransactionalRepository } from '@platform/database';
import { violatedUniqueConstraint } from '@platform/errors';
import type { CampaignModelDto } from './campaign-model.dto';
import type { Slots } from './template-content';

/** The API's names for a campaign_models row `m` (docs/campaign-models.md, Data). */
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
  accountID: string;
  credentialsRef: string;
}

export interface NewCampaignModel {
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
  tenantID: string;
  status: CampaignModelStatus;
  name: string;
  language: string;
  type: string;
  slots: Slots;
  accountID: string;
  credentialsRef: string;
}

/** The unique index that decides who gets a name (tenant, channel, name). */
const NAME_INDEX = 'campaign_models_tenant_channel_name_key';

type ViewWithLanguage = CampaignModelDto & { language: string };

const CONNECTED_CHANNEL = sql<ConnectedChannel, [channelID: string, tenantID: string]>(
  `SELECT id, channel, account_id AS "accountID", credentials_ref AS "credentialsRef"
         FROM messaging_channels WHERE id = $1 AND tenant_id = $2 AND status = 'connected'`,
);

const NAMES_LIKE = sql<{ name: string }, [tenantID: string, channelID: string, pattern: string]>(
  `SELECT name FROM campaign_models WHERE tenant_id = $1 AND channel_id = $2 AND name LIKE $3`,
);

const SAVEPOINT = sql<never>('SAVEPOINT reserve_name');
const ROLLBACK_TO_SAVEPOINT = sql<never>('ROLLBACK TO SAVEPOINT reserve_name');
const RELEASE_SAVEPOINT = sql<never>('RELEASE SAVEPOINT reserve_name');

const INSERT = sql<
  { id: string },
  [
    tenantID: string,
    channel: string,
    channelID: string,
    name: string,
    type: string,
    description: string | null,
    language: string,
    gatewayMeta: string,
    meta: string,
    tags: string[],
    slots: string,
    modelVariables: string,
    createdBy: string,
  ]
>(
  `INSERT INTO campaign_models (tenant_id, channel, channel_id, name, type, description, language, status,
                                    gateway_meta, meta, tags, slots, model_variables, processing_at, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'awaiting_submission', $8, $9, $10, $11, $12, now(), $13, $13)
       RETURNING id`,
);

const VIEW = sql<ViewWithLanguage, [campaignModelID: string, tenantID: string]>(
  `SELECT ${VIEW_COLUMNS}, m.language FROM campaign_models m WHERE m.id = $1 AND m.tenant_id = $2 AND m.deleted_at IS NULL`,
);

const UPDATE_META_AND_TAGS = sql<CampaignModelDto, [campaignModelID: string, tenantID: string, meta: string | null, tags: string[] | null, operatorID: string]>(
  `UPDATE campaign_models m
          SET meta = COALESCE($3::jsonb, m.meta), tags = COALESCE($4::text[], m.tags), updated_at = now(), updated_by = $5
        WHERE m.id = $1 AND m.tenant_id = $2 AND m.deleted_at IS NULL
        RETURNING ${VIEW_COLUMNS}`,
);

const SUBMISSION_SUBJECT = sql<SubmissionSubject, [campaignModelID: string]>(
  `SELECT m.id, m.tenant_id AS "tenantID", m.status, m.name, m.language, m.type, m.slots, c.account_id AS "accountID", c.credentials_ref AS "credentialsRef"
         FROM campaign_models m JOIN messaging_channels c ON c.id = m.channel_id
        WHERE m.id = $1`,
);

/** The columns of a status change, as `ModelStatusChange` names them, for a RETURNING. */
const STATUS_CHANGE_COLUMNS = `m.id AS "campaignModelID", m.tenant_id AS "tenantID", m.name, m.status`;

const RECORD_ACCEPTED = sql<ModelStatusChange, [campaignModelID: string, status: CampaignModelStatus, externalID: string, raw: string]>(
  `UPDATE campaign_models m
          SET status = $2, external_id = $3, gateway_raw = $4, submission_attempts = submission_attempts + 1,
              evaluating_at = CASE WHEN $2 = 'evaluating' THEN now() ELSE evaluating_at END,
              approved_at = CASE WHEN $2 = 'approved' THEN now() ELSE approved_at END,
              refused_at = CASE WHEN $2 = 'refused' THEN now() ELSE refused_at END,
              updated_at = now()
        WHERE id = $1 AND status = 'awaiting_submission'
        RETURNING ${STATUS_CHANGE_COLUMNS}, 'awaiting_submission' AS "previousStatus"`,
);

const RECORD_REFUSED = sql<ModelStatusChange, [campaignModelID: string, errorCode: number, errorMessage: string, raw: string]>(
  `UPDATE campaign_models m
          SET status = 'refused', refused_at = now(), error_code = $2, error_message = $3, gateway_raw = $4,
              submission_attempts = submission_attempts + 1, updated_at = now()
        WHERE id = $1 AND status = 'awaiting_submission'
        RETURNING ${STATUS_CHANGE_COLUMNS}, 'awaiting_submission' AS "previousStatus"`,
);

const RECORD_UNAVAILABLE = sql<never, [campaignModelID: string]>(
  `UPDATE campaign_models SET submission_attempts = submission_attempts + 1 WHERE id = $1 AND status = 'awaiting_submission'`,
);

/**
 * The models to move, locked first so that the status each had before is
 * the one this update replaces (a concurrent update is waited for, and the
 * conditions are checked again on what it left).
 */
const APPLY_PROVIDER_STATUS = sql<
  ModelStatusChange,
  [externalID: string, accountID: string, status: CampaignModelStatus, occurredAt: Date, reason: string | null, lastStatusUpdate: string]
>(
  `WITH moving AS (
         SELECT m.id, m.status FROM campaign_models m JOIN messaging_channels c ON c.id = m.channel_id
          WHERE m.external_id = $1 AND c.account_id = $2
            AND m.status <> $3
            AND (m.provider_status_at IS NULL OR m.provider_status_at <= $4)
            FOR UPDATE OF m
       )
       UPDATE campaign_models m
          SET status = $3,
              provider_status_at = $4,
              evaluating_at = CASE WHEN $3 = 'evaluating' THEN $4 ELSE m.evaluating_at END,
              approved_at = CASE WHEN $3 = 'approved' THEN $4 ELSE m.approved_at END,
              refused_at = CASE WHEN $3 = 'refused' THEN $4 ELSE m.refused_at END,
              error_code = CASE WHEN $3 = 'refused' THEN m.error_code END,
              error_message = CASE WHEN $3 = 'refused' THEN COALESCE($5, m.error_message) END,
              gateway_raw = m.gateway_raw || jsonb_build_object('lastStatusUpdate', $6::jsonb),
              updated_at = now()
         FROM moving
        WHERE m.id = moving.id
        RETURNING ${STATUS_CHANGE_COLUMNS}, moving.status AS "previousStatus"`,
);

/** A model that moved from one status to another (what campaignModel.statusChanged tells). */
export interface ModelStatusChange {
  campaignModelID: string;
  tenantID: string;
  name: string;
  previousStatus: CampaignModelStatus;
  status: CampaignModelStatus;
}

/** A status the provider reported for one of its templates (the webhook), at the provider's event time. */
export interface ProviderStatusChange {
  externalID: string;
  accountID: string;
  status: CampaignModelStatus;
  occurredAt: Date;
  reason: string | null;
  /** What is kept of the update on the model (gateway_raw.lastStatusUpdate). */
  lastStatusUpdate: Record<string, unknown>;
}

/** All SQL of campaign models outside the list (campaign-models-list.repository.ts). */
@Injectable()
export class CampaignModelsRepository extends TransactionalRepository {
  async findConnectedChannel(scope: TenantScope, channelID: string): Promise<ConnectedChannel | undefined> {
    return firstRow(this.dataSource, CONNECTED_CHANNEL, [channelID, scope.tenantID]);
  }

  /** Names of the channel that `base` or its suffixed forms may collide with (a hint; the unique index decides). */
  async namesSharingPrefix(runner: SqlRunner, scope: TenantScope, channelID: string, prefix: string): Promise<string[]> {
    const escaped = prefix.replace(/[\\%_]/g, (character) => `\\${character}`);
    const found = await rows(runner, NAMES_LIKE, [scope.tenantID, channelID, `${escaped}%`]);
    return found.map((row) => row.name);
  }

  /**
   * Inserts the model under `name`, awaiting submission, within the
   * transaction of `runner`; undefined when the name is taken (the unique
   * index refused it), and the transaction goes on as before the attempt
   * (a savepoint), so the next name can be tried.
   */
  async insertUnlessNameTaken(runner: SqlRunner, scope: TenantScope, model: NewCampaignModel, name: string): Promise<string | undefined> {
    await run(runner, SAVEPOINT, []);
    let inserted: { id: string } | undefined;
    try {
      inserted = await firstRow(runner, INSERT, [
        scope.tenantID,
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
      ]);
    } catch (error) {
      if (violatedUniqueConstraint(error) !== NAME_INDEX) throw error;
      await run(runner, ROLLBACK_TO_SAVEPOINT, []);
      return undefined;
    }
    await run(runner, RELEASE_SAVEPOINT, []);
    if (!inserted) throw new Error('INSERT ... RETURNING returned no row');
    return inserted.id;
  }

  async findView(scope: TenantScope, campaignModelID: string): Promise<ViewWithLanguage | undefined> {
    return firstRow(this.dataSource, VIEW, [campaignModelID, scope.tenantID]);
  }

  /** Operation 3: only meta and tags (each when given), plus updatedAt/updatedBy. */
  async updateMetaAndTags(
    scope: TenantScope,
    campaignModelID: string,
    changes: { meta?: Record<string, unknown>; tags?: string[] },
    operatorID: string,
    runner: SqlRunner = this.dataSource,
  ): Promise<CampaignModelDto | undefined> {
    return firstRow(runner, UPDATE_META_AND_TAGS, [
      campaignModelID,
      scope.tenantID,
      changes.meta === undefined ? null : JSON.stringify(changes.meta),
      changes.tags ?? null,
      operatorID,
    ]);
  }

  /** By the model's id alone: the submission job acts on a model its create already checked. */
  async findSubmissionSubject(campaignModelID: string): Promise<SubmissionSubject | undefined> {
    return firstRow(this.dataSource, SUBMISSION_SUBJECT, [campaignModelID]);
  }

  /**
   * The provider holds the template: its id, the status it reported and the
   * matching timestamp, in `runner`'s transaction. The change, or undefined
   * when the model no longer awaited submission.
   */
  async recordAccepted(
    runner: SqlRunner,
    campaignModelID: string,
    externalID: string,
    status: CampaignModelStatus,
    raw: Record<string, unknown>,
  ): Promise<ModelStatusChange | undefined> {
    return firstRow(runner, RECORD_ACCEPTED, [campaignModelID, status, externalID, JSON.stringify(raw)]);
  }

  /** The provider refused the template, in `runner`'s transaction; as recordAccepted. */
  async recordRefused(
    runner: SqlRunner,
    campaignModelID: string,
    errorCode: number,
    errorMessage: string,
    raw: Record<string, unknown>,
  ): Promise<ModelStatusChange | undefined> {
    return firstRow(runner, RECORD_REFUSED, [campaignModelID, errorCode, errorMessage, JSON.stringify(raw)]);
  }

  async recordUnavailable(campaignModelID: string): Promise<void> {
    await run(this.dataSource, RECORD_UNAVAILABLE, [campaignModelID]);
  }

  /**
   * Moves the provider's template to the reported status, unless it is there
   * already or a later update was applied. Found by the provider's template
   * id and account, not by tenant: the webhook is signed by the provider,
   * and the account ties the template to the channel that submitted it.
   * Runs in `runner`'s transaction; answers the models it moved.
   */
  async applyProviderStatus(runner: SqlRunner, change: ProviderStatusChange): Promise<ModelStatusChange[]> {
    return rows(runner, APPLY_PROVIDER_STATUS, [
      change.externalID,
      change.accountID,
      change.status,
      change.occurredAt,
      change.reason,
      JSON.stringify(change.lastStatusUpdate),
    ]);
  }
}
