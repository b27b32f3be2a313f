import fc from 'fast-check';
import { rawRequestText, RawResponse, sendRaw } from '../raw-http';
import { credentialCases } from './credentials';
import { AppRole } from './operations';
import { HostileRequest, hostileRequest } from './requests';
import { HostileTargets } from './targets';
import { judge, Violation, ViolationKind } from './verdict';

export interface HostileCampaignOptions {
  targets: HostileTargets;
  runs: number;
  /** The same seed gives the same requests. */
  seed: number;
  /** Requests in flight at once. */
  concurrency?: number;
}

export interface ReportedViolation extends Violation {
  request: string;
}

export interface HostileSummary {
  seed: number;
  total: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** Wrong answers by kind (all kinds listed, zero included). */
  wrongByKind: Record<ViolationKind, number>;
  violations: ReportedViolation[];
}

const VIOLATION_KINDS: (ViolationKind)[] = [
  'no answer',
  'outside the envelope',
  'not a catalog error',
  'unlisted 5xx',
  'forged credential accepted',
  'unstorable text accepted',
  'unexpected status',
  'not ready afterwards',
];

/** The request as a person would read it: method, app, target (shortened) and what was hostile about it. */
export function describeRequest(request: HostileRequest): string {
  const target = request.target.length > 160 ? `${request.target.slice(0, 160)}... (${request.target.length} chars)` : request.target;
  const body = request.body === undefined ? '' : ` body ${request.body.length > 80 ? `${JSON.stringify(request.body.slice(0, 80))}... (${request.body.length} chars)` : JSON.stringify(request.body)}`;
  return `${request.operation.name}: ${request.method} ${request.app} ${JSON.stringify(target)}${body} [${request.traits.join('; ') || 'well-formed'}]`;
}

async function send(targets: HostileTargets, request: HostileRequest): Promise<RawResponse | Error> {
  const baseUrl = targets.urls[request.app];
  const text = rawRequestText(new URL(baseUrl).host, { method: request.method, target: request.target, headers: request.headers, body: request.body });
  return sendRaw(baseUrl, text).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
}

/** The hostile requests a seed gives, in order. */
export async function hostileRequests(targets: HostileTargets, runs: number, seed: number): Promise<HostileRequest[]> {
  return fc.sample(hostileRequest(targets, await credentialCases(targets)), { seed, numRuns: runs });
}

/**
 * Sends `runs` hostile requests generated from `seed` at the target apps,
 * judges every answer, then checks every app still answers `/health/ready`.
 */
export async function runHostileCampaign(options: HostileCampaignOptions): Promise<HostileSummary> {
  const { targets, runs, seed } = options;
  const requests = await hostileRequests(targets, runs, seed);
  const summary: HostileSummary = {
    seed,
    total: 0,
    statuses: {},
    wrongByKind: Object.fromEntries(VIOLATION_KINDS.map((kind) => [kind, 0])) as HostileSummary['wrongByKind'],
    violations: [],
  };
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++];
      const answer = await send(targets, request);
      summary.total += 1;
      const status = answer instanceof Error ? 'none' : String(answer.status);
      summary.statuses[status] = (summary.statuses[status] ?? 0) + 1;
      for (const violation of judge(request, answer)) {
        summary.wrongByKind[violation.kind] += 1;
        summary.violations.push({ ...violation, request: describeRequest(request) });
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));

  for (const app of Object.keys(targets.urls) as AppRole[]) {
    const ready = await fetch(`${targets.urls[app]}/health/ready`).then((response) => response.status, () => 0);
    if (ready !== 200) {
      summary.wrongByKind['not ready afterwards'] += 1;
      summary.violations.push({ kind: 'not ready afterwards', status: ready, detail: `${app} /health/ready answered ${ready}`, request: `GET ${app} /health/ready` });
    }
  }
  return summary;
}

/** A few lines for a person: totals, wrong answers by kind, the first violations, and how to replay the seed. */
export function formatSummary(summary: HostileSummary, maxViolations = 20): string {
  const statuses = Object.entries(summary.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  const lines = [
    `hostile requests: ${summary.total} (seed ${summary.seed})`,
    `answers by status: ${statuses}`,
    'wrong answers by kind:',
    ...Object.entries(summary.wrongByKind).map(([kind, count]) => `  ${kind}: ${count}`),
    ...summary.violations.slice(0, maxViolations).map((violation) => `  - ${violation.kind} (${violation.detail}): ${violation.request}`),
  ];
  if (summary.violations.length > maxViolations) lines.push(`  ... and ${summary.violations.length - maxViolations} more`);
  return lines.join('\n');
}
