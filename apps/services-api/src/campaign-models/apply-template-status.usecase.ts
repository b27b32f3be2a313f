import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { modelStatusOfProvider } from './campaign-model-status';
import type { TemplateStatusUpdate } from './template-status-webhook';

/**
 * Moves a model to the status a provider webhook reports. Idempotent and
 * order-safe: a model already in that status is left alone (a redelivery
 * changes nothing), an update older than the last one applied is ignored,
 * and timestamps are the provider's event time, not the delivery's.
 */
@Injectable()
export class ApplyTemplateStatus {
  private readonly logger = new Logger(ApplyTemplateStatus.name);

  constructor(private readonly dataSource: DataSource) {}

  async execute(update: TemplateStatusUpdate): Promise<void> {
    const status = modelStatusOfProvider(update.event);
    if (!status) {
      this.logger.warn({ event: update.event }, 'unknown template status in webhook; ignored');
      return;
    }
    await this.dataSource.query(
      `UPDATE campaign_models m
          SET status = $3,
              provider_status_at = $4,
              evaluating_at = CASE WHEN $3 = 'evaluating' THEN $4 ELSE m.evaluating_at END,
              approved_at = CASE WHEN $3 = 'approved' THEN $4 ELSE m.approved_at END,
              refused_at = CASE WHEN $3 = 'refused' THEN $4 ELSE m.refused_at END,
              error_code = CASE WHEN $3 = 'refused' THEN m.error_code END,
              error_message = CASE WHEN $3 = 'refused' THEN COALESCE($5, m.error_message) END,
              gateway_raw = m.gateway_raw || jsonb_build_object('lastStatusUpdate', $6::jsonb),
              updated_at = now()
         FROM messaging_channels c
        WHERE m.external_id = $1 AND c.id = m.channel_id AND c.account_id = $2
          AND m.status <> $3
          AND (m.provider_status_at IS NULL OR m.provider_status_at <= $4)`,
      [
        update.templateId,
        update.accountId,
        status,
        update.occurredAt,
        update.reason,
        JSON.stringify({ event: update.event, reason: update.reason, at: update.occurredAt.toISOString() }),
      ],
    );
  }
}
