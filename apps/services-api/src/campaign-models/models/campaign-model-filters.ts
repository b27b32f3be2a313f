import { CAMPAIGN_MODEL_STATUSES, MESSAGING_CHANNELS } from '@platform/database';
import { canonicalUuid, isUuid } from '@platform/http-common';
import { ValidateBy, ValidationOptions } from 'class-validator';
import { isPlainObject } from './campaign-model.validators';

/** Template categories of the provider (kept here too so this module has no import cycle with the DTOs). */
const TYPES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;

/** What the list's `filters` parameter may hold, parsed. Every member narrows the list (AND). */
export interface CampaignModelFilters {
  statuses?: string[];
  types?: string[];
  channels?: string[];
  channelIDs?: string[];
  /** Models carrying every one of these tags. */
  tags?: string[];
  externalID?: string;
}

type Rule = (value: unknown) => string[] | undefined;

const MAX_VALUES = 20;

/** A value of `accepted`, or an array of 1-20 of them ("any of"). */
function oneOrMany(accepts: (item: unknown) => boolean): Rule {
  return (value) => {
    const items = Array.isArray(value) ? value : [value];
    if (items.length < 1 || items.length > MAX_VALUES || !items.every(accepts)) return undefined;
    return [...new Set(items as string[])];
  };
}

const inList = (list: readonly string[]) => (item: unknown) => typeof item === 'string' && list.includes(item);
const shortString = (max: number) => (item: unknown) => typeof item === 'string' && item.length >= 1 && item.length <= max;

/** The allow-list: filter field -> how its value is read and which member of CampaignModelFilters it fills. */
const RULES: Record<string, { into: keyof CampaignModelFilters; read: Rule; describe: string }> = {
  campaignModelStatus: { into: 'statuses', read: oneOrMany(inList(CAMPAIGN_MODEL_STATUSES)), describe: `status or array of (${CAMPAIGN_MODEL_STATUSES.join('|')})` },
  campaignModelType: { into: 'types', read: oneOrMany(inList(TYPES)), describe: `type or array of (${TYPES.join('|')})` },
  campaignModelChannel: { into: 'channels', read: oneOrMany(inList(MESSAGING_CHANNELS)), describe: `channel or array of (${MESSAGING_CHANNELS.join('|')})` },
  campaignModelChannelID: { into: 'channelIDs', read: oneOrMany(isUuid), describe: 'uuid or array of uuids' },
  campaignModelTags: { into: 'tags', read: oneOrMany(shortString(64)), describe: 'tag or array of tags, all required' },
  campaignModelExternalID: {
    into: 'externalID',
    read: (value) => (shortString(128)(value) ? [value as string] : undefined),
    describe: 'string of 1-128 characters',
  },
};

/** The `allowed` text of a refused `filters` parameter. */
export const FILTERS_ALLOWED = `JSON object with any of: ${Object.entries(RULES)
  .map(([field, rule]) => `${field} (${rule.describe})`)
  .join(', ')}; arrays hold 1-${MAX_VALUES} values`;

/**
 * Parses the `filters` query parameter, or returns undefined when it is not
 * a JSON object over the allow-list with values of the right types. Field
 * names never reach SQL: each allowed field maps to a fixed condition.
 */
export function parseCampaignModelFilters(raw: string): CampaignModelFilters | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isPlainObject(parsed)) return undefined;
  const filters: CampaignModelFilters = {};
  for (const [field, value] of Object.entries(parsed)) {
    const rule = Object.hasOwn(RULES, field) ? RULES[field] : undefined;
    const values = rule?.read(value);
    if (!rule || !values) return undefined;
    if (rule.into === 'externalID') filters.externalID = values[0];
    else filters[rule.into] = rule.into === 'channelIDs' ? values.map(canonicalUuid) : values;
  }
  return filters;
}

export function IsCampaignModelFilters(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isCampaignModelFilters', validator: { validate: (value) => typeof value === 'string' && parseCampaignModelFilters(value) !== undefined } },
    { ...options, message: FILTERS_ALLOWED },
  );
}
