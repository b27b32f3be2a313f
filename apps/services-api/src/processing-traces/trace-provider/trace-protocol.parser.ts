import { canonicalUuid, isUuid } from '@platform/http-common';
import {
  ListedTrace,
  PROCESS_STATUSES,
  ProcessStatus,
  PROTOCOL_LIMITS,
  PROVIDER_TRACE_STATUSES,
  ProviderDetail,
  ProviderMetric,
  ProviderStep,
  ProviderTraceStatus,
  ReadTrace,
  SessionTraceList,
} from './trace-protocol';

/** A provider answer that does not follow the protocol; `path` names the first offending member. */
export class InvalidProviderAnswer extends Error {
  constructor(readonly path: string, expected: string) {
    super(`${path}: expected ${expected}`);
  }
}

type Json = Record<string, unknown>;

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidProviderAnswer(path, 'an object');
  return value as Json;
}

function array(value: unknown, path: string, max: number): unknown[] {
  if (!Array.isArray(value)) throw new InvalidProviderAnswer(path, 'an array');
  if (value.length > max) throw new InvalidProviderAnswer(path, `at most ${max} items`);
  return value;
}

function optionalArray(value: unknown, path: string, max: number): unknown[] {
  return value === undefined ? [] : array(value, path, max);
}

function string(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new InvalidProviderAnswer(path, 'a string');
  return value;
}

function nonEmptyString(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new InvalidProviderAnswer(path, 'a non-empty string');
  return value;
}

function optionalString(value: unknown, path: string): string | undefined {
  return value === undefined || value === null ? undefined : string(value, path);
}

function duration(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new InvalidProviderAnswer(path, 'a number >= 0');
  return value;
}

function count(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new InvalidProviderAnswer(path, 'an integer >= 0');
  return value;
}

/** An RFC 3339 date-time with a zone, rendered back in UTC so that times of all providers compare as text. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

function dateTime(value: unknown, path: string): string {
  if (typeof value !== 'string' || !DATE_TIME.test(value)) throw new InvalidProviderAnswer(path, 'an RFC 3339 date-time');
  const time = new Date(value);
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  // Date rolls 02-31 over into March: the calendar day must exist as written.
  const realDay = new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day && month >= 1 && month <= 12;
  if (Number.isNaN(time.getTime()) || !realDay) throw new InvalidProviderAnswer(path, 'an RFC 3339 date-time');
  return time.toISOString();
}

function oneOf<T extends string>(values: readonly T[], value: unknown, path: string): T {
  if (!values.includes(value as T)) throw new InvalidProviderAnswer(path, `one of ${values.join(', ')}`);
  return value as T;
}

/** Cuts a detail value to the protocol's length, in characters (code points, never half a pair). */
export function truncateDetailValue(value: string, alreadyTruncated: boolean): { value: string; truncated: boolean } {
  const max = PROTOCOL_LIMITS.detailValueChars;
  if (value.length <= max) return { value, truncated: alreadyTruncated };
  const characters = [...value];
  if (characters.length <= max) return { value, truncated: alreadyTruncated };
  return { value: characters.slice(0, max).join(''), truncated: true };
}

function detail(value: unknown, path: string): ProviderDetail {
  const raw = object(value, path);
  const truncatedFlag = raw.truncated === undefined ? false : raw.truncated;
  if (typeof truncatedFlag !== 'boolean') throw new InvalidProviderAnswer(`${path}.truncated`, 'a boolean');
  const cut = truncateDetailValue(string(raw.value, `${path}.value`), truncatedFlag);
  return { kind: nonEmptyString(raw.kind, `${path}.kind`), label: string(raw.label, `${path}.label`), ...cut };
}

function metric(value: unknown, path: string): ProviderMetric {
  const raw = object(value, path);
  return { label: string(raw.label, `${path}.label`), value: string(raw.value, `${path}.value`) };
}

function step(value: unknown, path: string): ProviderStep {
  const raw = object(value, path);
  const parsed: ProviderStep = {
    stepID: nonEmptyString(raw.stepID, `${path}.stepID`),
    title: string(raw.title, `${path}.title`),
    category: nonEmptyString(raw.category, `${path}.category`),
    status: nonEmptyString(raw.status, `${path}.status`),
    startedAt: dateTime(raw.startedAt, `${path}.startedAt`),
    durationMs: duration(raw.durationMs, `${path}.durationMs`),
    details: optionalArray(raw.details, `${path}.details`, PROTOCOL_LIMITS.details).map((item, index) => detail(item, `${path}.details.${index}`)),
    metrics: optionalArray(raw.metrics, `${path}.metrics`, PROTOCOL_LIMITS.metrics).map((item, index) => metric(item, `${path}.metrics.${index}`)),
  };
  for (const name of ['subtitle', 'error', 'highlight'] as const) {
    const text = optionalString(raw[name], `${path}.${name}`);
    if (text !== undefined) parsed[name] = text;
  }
  return parsed;
}

function listedTrace(value: unknown, path: string): ListedTrace {
  const raw = object(value, path);
  if (!isUuid(raw.messageID)) throw new InvalidProviderAnswer(`${path}.messageID`, 'a uuid');
  return {
    messageID: canonicalUuid(raw.messageID),
    messageFingerprint: string(raw.messageFingerprint, `${path}.messageFingerprint`),
    traceRef: nonEmptyString(raw.traceRef, `${path}.traceRef`),
    startedAt: dateTime(raw.startedAt, `${path}.startedAt`),
    durationMs: duration(raw.durationMs, `${path}.durationMs`),
    status: oneOf<ProcessStatus>(PROCESS_STATUSES, raw.status, `${path}.status`),
    stepCount: count(raw.stepCount, `${path}.stepCount`),
  };
}

/** The answer of the list call (GET .../traces). */
export function parseSessionTraceList(body: unknown): SessionTraceList {
  const raw = object(body, '$');
  const list: SessionTraceList = {
    messages: array(raw.messages, '$.messages', PROTOCOL_LIMITS.messages).map((item, index) => listedTrace(item, `$.messages.${index}`)),
  };
  const sessionTraceRef = optionalString(raw.sessionTraceRef, '$.sessionTraceRef');
  if (sessionTraceRef !== undefined) list.sessionTraceRef = sessionTraceRef;
  return list;
}

function readTrace(value: unknown, path: string): ReadTrace {
  const raw = object(value, path);
  const status = oneOf<ProviderTraceStatus>(PROVIDER_TRACE_STATUSES, raw.status, `${path}.status`);
  const trace: ReadTrace = { traceRef: nonEmptyString(raw.traceRef, `${path}.traceRef`), status, steps: [], details: [] };
  // A trace that is gone carries nothing else worth reading.
  if (status === 'not_found' || status === 'expired') return trace;
  trace.processStatus =
    raw.processStatus === undefined && status === 'pending' ? 'running' : oneOf<ProcessStatus>(PROCESS_STATUSES, raw.processStatus, `${path}.processStatus`);
  trace.startedAt = dateTime(raw.startedAt, `${path}.startedAt`);
  trace.durationMs = duration(raw.durationMs, `${path}.durationMs`);
  trace.steps = array(raw.steps, `${path}.steps`, PROTOCOL_LIMITS.steps).map((item, index) => step(item, `${path}.steps.${index}`));
  trace.details = optionalArray(raw.details, `${path}.details`, PROTOCOL_LIMITS.details).map((item, index) => detail(item, `${path}.details.${index}`));
  return trace;
}

/** The answer of the read call (POST .../traces/read). */
export function parseReadTraces(body: unknown): ReadTrace[] {
  const raw = object(body, '$');
  return array(raw.traces, '$.traces', PROTOCOL_LIMITS.steps).map((item, index) => readTrace(item, `$.traces.${index}`));
}
