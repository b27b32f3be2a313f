import { describe, expect, it } from 'vitest';
import { parseCampaignModelFilters } from './campaign-model-filters';

describe('campaign model filters', () => {
  it('reads allowed fields, single values or arrays', () => {
    expect(parseCampaignModelFilters('{}')).toEqual({});
    expect(parseCampaignModelFilters('{"campaignModelStatus":"approved"}')).toEqual({ statuses: ['approved'] });
    expect(
      parseCampaignModelFilters(
        '{"campaignModelStatus":["approved","refused","approved"],"campaignModelType":"UTILITY","campaignModelTags":["a","b"],"campaignModelExternalID":"123"}',
      ),
    ).toEqual({ statuses: ['approved', 'refused'], types: ['UTILITY'], tags: ['a', 'b'], externalID: '123' });
    expect(parseCampaignModelFilters('{"campaignModelChannelID":"5F0C8A8E-3A1B-4C2D-9E8F-0A1B2C3D4E5F"}')).toEqual({
      channelIDs: ['5f0c8a8e-3a1b-4c2d-9e8f-0a1b2c3d4e5f'],
    });
  });

  it.each([
    ['not JSON', '{campaignModelStatus:1}'],
    ['an array', '["approved"]'],
    ['null', 'null'],
    ['a field off the allow-list', '{"name":"x"}'],
    ['a SQL fragment as a field', '{"status; DROP TABLE campaign_models":"x"}'],
    ['a prototype key', '{"__proto__":{"x":1}}'],
    ['an unknown status', '{"campaignModelStatus":"gone"}'],
    ['a number for a string field', '{"campaignModelExternalID":12}'],
    ['an empty array', '{"campaignModelStatus":[]}'],
    ['a nested object', '{"campaignModelStatus":{"$ne":"approved"}}'],
    ['a malformed uuid', '{"campaignModelChannelID":"abc"}'],
    ['too many values', JSON.stringify({ campaignModelTags: Array.from({ length: 21 }, (_, index) => `t${index}`) })],
  ])('refuses %s', (_, raw) => {
    expect(parseCampaignModelFilters(raw)).toBeUndefined();
  });
});
