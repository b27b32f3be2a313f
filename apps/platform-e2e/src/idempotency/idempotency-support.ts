import { expect } from 'vitest';

/** An answer as the client sees it: status, headers and the body as sent. */
export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** POSTs `body` as JSON with the given credential and, unless undefined, Idempotency-Key; reads the raw answer. */
export async function postJson(url: string, authorization: string, key: string | undefined, body: unknown): Promise<RawAnswer> {
  const headers: Record<string, string> = { authorization, 'content-type': 'application/json' };
  if (key !== undefined) headers['idempotency-key'] = key;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}

/** The first answer and its replay are the same answer: status and body byte for byte, the replay marked as such. */
export function expectReplayOf(first: RawAnswer, replay: RawAnswer): void {
  expect(replay.status).toBe(first.status);
  expect(replay.text).toBe(first.text);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.headers.get('content-type')).toBe(first.headers.get('content-type'));
}
