import { describe, expect, it } from 'vitest';
import { MESSAGE_PAGES } from './message-cursor';

const ID = '0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';

describe('MESSAGE_PAGES', () => {
  it('parses back the positions it formats', () => {
    const position = { createdAt: '2026-11-20T12:34:56.123456Z', messageID: ID };
    expect(MESSAGE_PAGES.parse(MESSAGE_PAGES.format(position))).toEqual(position);
    expect(MESSAGE_PAGES.parse(`2024-02-29T23:59:59.999999Z_${ID}`)).toEqual({ createdAt: '2024-02-29T23:59:59.999999Z', messageID: ID });
  });

  it('refuses a time PostgreSQL cannot hold or that names no real instant, and any other shape', () => {
    for (const text of [
      `2026-02-30T12:00:00.000000Z_${ID}`,
      `2025-02-29T12:00:00.000000Z_${ID}`,
      `0000-01-01T00:00:00.000000Z_${ID}`,
      `2026-13-01T00:00:00.000000Z_${ID}`,
      `2026-01-01T24:00:00.000000Z_${ID}`,
      `2026-01-01T00:60:00.000000Z_${ID}`,
      `2026-01-01T00:00:00.000Z_${ID}`,
      `2026-01-01T00:00:00.000000Z_${ID.toUpperCase()}`,
      `2026-01-01T00:00:00.000000Z`,
    ]) {
      expect(MESSAGE_PAGES.parse(text), text).toBeUndefined();
    }
  });
});
