import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUuid } from './uuid';

const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: length, maxLength: length });
const versionDigit = fc.constantFrom(...'12345678');
const variantDigit = fc.constantFrom(...'89abAB');

/** A UUID by the API's rule (docs/http-conventions.md, Validation): version 1-8, variant 8/9/a/b, any case. */
const validUuid = fc
  .tuple(hex(8), hex(4), versionDigit, hex(3), variantDigit, hex(3), hex(12))
  .map(([a, b, version, c, variant, d, e]) => `${a}-${b}-${version}${c}-${variant}${d}-${e}`);

describe('the <uuid> rule', () => {
  it('accepts every UUID of versions 1-8 and variants 8, 9, a, b, in any case', () => {
    fc.assert(fc.property(validUuid, (uuid) => isUuid(uuid)));
  });

  it('accepts the nil and the all-f UUIDs, in any case', () => {
    expect(isUuid('00000000-0000-0000-0000-000000000000')).toBe(true);
    expect(isUuid('ffffffff-ffff-ffff-ffff-ffffffffffff')).toBe(true);
    expect(isUuid('FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF')).toBe(true);
  });

  it('refuses version digits 0 and 9-f', () => {
    const badVersion = fc.constantFrom(...'09abcdefABCDEF');
    fc.assert(
      fc.property(fc.tuple(hex(8), hex(4), badVersion, hex(3), variantDigit, hex(3), hex(12)), ([a, b, version, c, variant, d, e]) => {
        const candidate = `${a}-${b}-${version}${c}-${variant}${d}-${e}`;
        return !isUuid(candidate) || /^(0{8}-0{4}-0{4}-0{4}-0{12}|f{8}-f{4}-f{4}-f{4}-f{12})$/i.test(candidate);
      }),
    );
  });

  it('refuses variant digits 0-7 and c-f', () => {
    const badVariant = fc.constantFrom(...'01234567cdefCDEF');
    fc.assert(
      fc.property(fc.tuple(hex(8), hex(4), versionDigit, hex(3), badVariant, hex(3), hex(12)), ([a, b, version, c, variant, d, e]) =>
        !isUuid(`${a}-${b}-${version}${c}-${variant}${d}-${e}`),
      ),
    );
  });

  it('refuses a valid UUID with one character changed to a non-hex one, removed or added', () => {
    fc.assert(
      fc.property(validUuid, fc.nat(35), fc.constantFrom(...'gxz _{}'), (uuid, index, intruder) => {
        const replaced = uuid.slice(0, index) + intruder + uuid.slice(index + 1);
        const removed = uuid.slice(0, index) + uuid.slice(index + 1);
        const added = uuid.slice(0, index) + 'a' + uuid.slice(index);
        return !isUuid(replaced) && !isUuid(removed) && !isUuid(added);
      }),
    );
  });

  it('refuses wrappers, other separators and non-strings', () => {
    fc.assert(
      fc.property(validUuid, (uuid) => !isUuid(`{${uuid}}`) && !isUuid(` ${uuid}`) && !isUuid(`${uuid}\n`) && !isUuid(uuid.replaceAll('-', ''))),
    );
    for (const value of [undefined, null, 42, {}, ['00000000-0000-0000-0000-000000000000']]) expect(isUuid(value)).toBe(false);
  });

  it('refuses arbitrary strings that do not have the shape', () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }), (text) => !isUuid(text) || /^[0-9a-f-]{36}$/i.test(text)));
  });
});
