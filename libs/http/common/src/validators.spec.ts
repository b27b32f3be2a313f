import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { IsCanonicalUuid, IsDateTimeValue } from './validators';

class Probe {
  @IsDateTimeValue()
  at!: unknown;
}

const accepts = (at: unknown) => {
  const probe = new Probe();
  probe.at = at;
  return validateSync(probe).length === 0;
};

describe('IsDateTimeValue', () => {
  it('accepts RFC 3339 date-times with Z or an offset, with or without fractions', () => {
    for (const at of ['2026-11-24T16:00:00Z', '2026-11-24T16:00:00.123Z', '2026-11-24t16:00:00+01:00', '2024-02-29T00:00:00-03:30']) {
      expect(accepts(at), at).toBe(true);
    }
  });

  it('refuses dates alone, missing offsets, days that do not exist, and non-strings', () => {
    for (const at of ['2026-11-24', '2026-11-24T16:00:00', '2026-02-30T00:00:00Z', '2025-02-29T00:00:00Z', '2026-13-01T00:00:00Z', 'yesterday', 1764000000000, null]) {
      expect(accepts(at), String(at)).toBe(false);
    }
  });
});

describe('IsCanonicalUuid', () => {
  class Ids {
    @IsCanonicalUuid()
    tenantID!: unknown;
  }
  const accepted = (tenantID: unknown) => plainToInstance(Ids, { tenantID });

  it('hands on an accepted UUID lower-cased, the one spelling the platform compares', () => {
    const probe = accepted('3B241101-E2BB-4255-8CAF-4136C566A962');
    expect(validateSync(probe)).toEqual([]);
    expect(probe.tenantID).toBe('3b241101-e2bb-4255-8caf-4136c566a962');
  });

  it('leaves a refused value as sent, so the error shows what the client sent', () => {
    const probe = accepted('NOT-A-UUID');
    expect(validateSync(probe)).toHaveLength(1);
    expect(probe.tenantID).toBe('NOT-A-UUID');
  });
});
