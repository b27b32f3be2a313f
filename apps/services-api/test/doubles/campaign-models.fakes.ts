import type { CampaignModelDto } from '../../src/campaign-models/models/campaign-model.dto';

/**
 * A complete campaign model as the repositories show it: a WhatsApp
 * utility template awaiting submission, with `overrides`. Specs state only
 * what they look at and still hand the use cases a whole row.
 */
export function campaignModelDto(overrides: Partial<CampaignModelDto> = {}): CampaignModelDto {
  const createdAt = new Date('2026-01-05T12:00:00.000Z');
  return {
    campaignModelID: '3b241101-e2bb-4255-8caf-4136c566a962',
    tenantID: '5d1e0f3a-8c2b-4d6e-9f10-112233445566',
    campaignModelChannel: 'whatsapp',
    campaignModelChannelID: '7e0b2d64-1f3c-4a5b-8c9d-0e1f2a3b4c5d',
    campaignModelName: 'order_update',
    campaignModelType: 'UTILITY',
    campaignModelDescription: null,
    campaignModelStatus: 'awaiting_submission',
    campaignModelExternalID: null,
    campaignModelGatewayMeta: { language: 'en' },
    campaignModelGatewayRaw: {},
    campaignModelMeta: {},
    campaignModelTags: [],
    campaignModelSlots: { body: { text: 'Hello' } },
    modelVariables: [],
    approvedAt: null,
    evaluatingAt: null,
    processingAt: null,
    refusedAt: null,
    createdAt,
    updatedAt: createdAt,
    deletedAt: null,
    createdBy: null,
    updatedBy: null,
    __campaignModelErrorCode: null,
    __campaignModelErrorMessage: null,
    ...overrides,
  };
}
