import type { CampaignModelStatus } from '@platform/database';

/**
 * The provider's template statuses (docs/external-providers.md, Message templates) onto campaignModelStatus.
 * docs/campaign-models.md shows the resulting states and transitions.
 */
const FROM_PROVIDER: Record<string, CampaignModelStatus> = {
  PENDING: 'evaluating',
  IN_APPEAL: 'evaluating',
  APPROVED: 'approved',
  REINSTATED: 'approved',
  UNARCHIVED: 'approved',
  REJECTED: 'refused',
  LIMIT_EXCEEDED: 'refused',
  PAUSED: 'paused',
  DISABLED: 'disabled',
  LOCKED: 'disabled',
  FLAGGED: 'flagged',
  ARCHIVED: 'archived',
  PENDING_DELETION: 'deleted',
  DELETED: 'deleted',
};

export function modelStatusOfProvider(providerStatus: string): CampaignModelStatus | undefined {
  return Object.hasOwn(FROM_PROVIDER, providerStatus) ? FROM_PROVIDER[providerStatus] : undefined;
}

/** The lifecycle timestamp a status stamps when a model enters it, if any. */
export type StampColumn = 'approved_at' | 'evaluating_at' | 'refused_at' | 'processing_at';

export function stampOf(status: CampaignModelStatus): StampColumn | undefined {
  switch (status) {
    case 'approved':
      return 'approved_at';
    case 'evaluating':
      return 'evaluating_at';
    case 'refused':
      return 'refused_at';
    case 'awaiting_submission':
      return 'processing_at';
    default:
      return undefined;
  }
}
