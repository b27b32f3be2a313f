// Each table is written only by the app that owns it, read by other apps only
// through the listed read paths, and queried only from `*.repository.ts` files
// (docs/data-access.md#table-ownership). Scans the TypeScript sources of
// apps/ and libs/ (not tests, migrations or test fixtures) and fails (exit 1)
// on any violation.
//
//   node tools/lint/table-ownership.mjs [--no-query-outside-repositories] [--allow-known=<file>,<file>]
//
// --no-query-outside-repositories  turns off the `.query(` rule (on by default).
// --allow-known=<files>            reports the violations of these files (paths
//                                  from the repository root) without failing:
//                                  code still on its way into a repository.
//
// Why regular expressions and not an SQL parser: what the scan sees is the
// string literals of TypeScript, and many are not whole statements (a WHERE
// clause kept in a constant, a template whose `${...}` parts are blanked out
// here, a column list joined into a statement elsewhere), which a parser
// refuses. The rules need only the table named after the few keywords that
// name one (INSERT INTO, UPDATE ... SET, DELETE FROM, TRUNCATE, MERGE INTO,
// FROM, JOIN) and the CTE names to leave out, which the patterns below find
// in a fragment as well as in a statement (table-ownership.spec.mjs holds the
// cases: `now()` is not the table `no`, a CTE is not a table, quoted and
// schema-qualified names). Nor is a parser of PostgreSQL's SQL among the
// installed packages (typeorm brings a formatter and a highlighter, which build
// no syntax tree); libpg-query, PostgreSQL's own parser, would be a new
// dependency for a gain only on whole statements.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The app that owns, and alone writes, each table (a `schema.*` entry covers a
 * whole schema). An owner may be a library (`libs/<name>`) for a table that
 * library alone writes on behalf of every app.
 */
export const TABLE_OWNERS = {
  tenants: 'core-tenants',
  operators: 'core-tenants',
  memberships: 'core-tenants',
  operator_invitations: 'core-tenants',
  plugins: 'core-tenants',
  plugin_connections: 'core-tenants',
  billing_cancellations: 'core-tenants',
  plugin_connection_install_intents: 'core-tenants',
  handled_transport_requests: 'core-tenants',
  help_centers: 'plugins-helpdesk',
  helpdesk_domains: 'plugins-helpdesk',
  campaign_models: 'services-api',
  campaign_model_counts: 'services-api',
  campaigns: 'services-api',
  contacts: 'services-api',
  contact_handles: 'services-api',
  contact_session_counts: 'services-api',
  inboxes: 'services-api',
  inbox_routing_policies: 'services-api',
  messages: 'services-api',
  messaging_channels: 'services-api',
  notifications: 'services-api',
  notification_unread_counts: 'services-api',
  notification_fanouts: 'services-api',
  notification_mail_preferences: 'services-api',
  notification_mail_items: 'services-api',
  notification_mail_batches: 'services-api',
  operator_presence: 'services-api',
  operator_socket_leases: 'realtime-gateway',
  routing_operator_turns: 'services-api',
  routing_requests: 'services-api',
  session_summaries: 'services-api',
  sessions: 'services-api',
  shortcuts: 'services-api',
  shortcut_counts: 'services-api',
  'pgboss.*': 'services-api',
  webhook_endpoints: 'services-api',
  webhook_deliveries: 'services-api',
  webhook_delivery_attempts: 'services-api',
  // Shared infrastructure written through one library by every app, each row
  // naming the app that wrote it (recorded_by, app).
  audit_events: 'libs/audit',
  webhook_events: 'libs/outbox',
  outbox_pending: 'libs/outbox',
  outbox_losses: 'libs/outbox',
  idempotency_keys: 'libs/idempotency',
};

/** The only files that read another app's tables, the tables each may read, and why. They write none. */
export const READ_PATHS = [
  {
    file: 'libs/auth/src/auth-reads.repository.ts',
    tables: ['tenants', 'memberships', 'operators', 'plugins', 'plugin_connections'],
    reason: 'every app authenticates callers and checks their standing in a tenant on each request; a transport round trip there would cost every request',
  },
  {
    file: 'apps/plugins-helpdesk/src/helpdesk-access/helpdesk-access.repository.ts',
    tables: ['tenants', 'plugin_connections', 'plugins'],
    reason: "the tenant's helpdesk state (the tenant exists, the helpdesk plugin connected), one indexed read on every helpdesk request",
  },
  {
    file: 'apps/services-api/src/processing-traces/processing-traces.repository.ts',
    tables: ['plugin_connections', 'plugins'],
    reason: "which of a tenant's installed plugins are trace providers, read with the traces they list",
  },
  {
    file: 'apps/services-api/src/conversations/inboxes/inboxes.repository.ts',
    tables: ['plugin_connections'],
    reason: 'an inbox is created on a live plugin connection of its tenant: one primary-key read in the create\'s transaction',
  },
  {
    file: 'apps/services-api/src/plugin-connections/plugin-connection-reads.repository.ts',
    tables: ['plugin_connections', 'plugins'],
    reason: "the tenant's plugin connections listed with their plugins and their inboxes (services-api's): one keyset page in one read, where a transport round trip would split it in two",
  },
  {
    file: 'apps/services-api/src/conversations/notifications/notification-fanouts.repository.ts',
    tables: ['memberships'],
    reason: "a queued session's inbound message notifies every operator of the tenant: one INSERT ... SELECT over the tenant's memberships, where a transport round trip would ship thousands of ids",
  },
  {
    file: 'apps/services-api/src/presence/presence.repository.ts',
    tables: ['memberships', 'operator_socket_leases'],
    reason: "the status in effect is derived from the operators' socket leases (the real-time gateway's) in the transaction that writes it, and the tenant's members are listed with their presence in one keyset page",
  },
  {
    file: 'apps/services-api/src/conversations/notifications/mails/delivery/notification-mails.repository.ts',
    tables: ['memberships', 'operators', 'tenants'],
    reason: "a notification mail's recipient as of the send (still a member, their address and first name, the tenant's name): one primary-key join per mail, by a background worker that has no request to ask core-tenants for",
  },
  {
    file: 'apps/services-api/src/conversations/routing/routing.repository.ts',
    tables: ['memberships'],
    reason: "routing chooses among the tenant's members (an inbox's operators must be members; none named means every member) in the statement that ranks them by load, under the pass's locks",
  },
];

/** Paths (prefixes, from the repository root) never scanned: not application code. */
export const NOT_SCANNED = [
  { path: 'apps/platform-e2e/', reason: 'end-to-end tests: they arrange and inspect rows of every app' },
  { path: 'libs/testing/', reason: 'the test database and its fixtures, which write every table' },
  { path: 'libs/test-support/', reason: 'the test database of repository specs and its tenant rows' },
  { path: 'libs/database/src/migrations/', reason: 'migrations create and change every table' },
];

/** Files that may call `.query(` outside a repository, and why. */
export const QUERY_EXCLUSIONS = [
  { file: 'libs/database/src/run-migrations.ts', reason: 'runs the migrations and their bookkeeping' },
  { file: 'libs/database/src/sql-executor.ts', reason: 'the port every typed statement runs through: where a statement reaches the driver' },
  { file: 'libs/health/src/postgres.health.ts', reason: 'the readiness ping, `SELECT 1` on no table' },
];

const isTest = (file) => /\.(spec|e2e-spec|test)\.ts$/.test(file);
const toPosix = (path) => path.split(sep).join('/');

/** What a file belongs to: its app's name, or `libs/<name>` for a library. */
export function appOf(file) {
  const app = /^apps\/([^/]+)\//.exec(file)?.[1];
  if (app) return app;
  const library = /^libs\/([^/]+)\//.exec(file)?.[1];
  return library ? `libs/${library}` : null;
}

/**
 * Splits TypeScript source into its code (literals and comments blanked out)
 * and its string literals (template expressions replaced by a space).
 */
export function splitSource(source) {
  const literals = [];
  let code = '';
  let i = 0;
  const n = source.length;

  function readQuoted(quote) {
    let text = '';
    i += 1;
    while (i < n && source[i] !== quote) {
      if (source[i] === '\\') i += 1;
      else if (source[i] === '\n') break;
      text += source[i] ?? '';
      i += 1;
    }
    i += 1;
    return text;
  }

  function readTemplate() {
    let text = '';
    i += 1;
    while (i < n && source[i] !== '`') {
      if (source[i] === '\\') {
        text += source[i + 1] ?? '';
        i += 2;
      } else if (source[i] === '$' && source[i + 1] === '{') {
        i += 2;
        readCode('}');
        text += ' ';
      } else {
        text += source[i];
        i += 1;
      }
    }
    i += 1;
    return text;
  }

  /** Reads code up to an unmatched `until` (or the end), collecting literals; returns the code read. */
  function readCode(until) {
    let depth = 0;
    let read = '';
    while (i < n) {
      const c = source[i];
      if (until && c === until && depth === 0) {
        i += 1;
        return read;
      }
      if (c === '{') depth += 1;
      if (c === '}') depth -= 1;
      if (c === '/' && source[i + 1] === '/') {
        while (i < n && source[i] !== '\n') i += 1;
      } else if (c === '/' && source[i + 1] === '*') {
        const end = source.indexOf('*/', i + 2);
        i = end < 0 ? n : end + 2;
        read += ' ';
      } else if (c === "'" || c === '"') {
        literals.push(readQuoted(c));
        read += '""';
      } else if (c === '`') {
        literals.push(readTemplate());
        read += '""';
      } else {
        read += c;
        i += 1;
      }
    }
    return read;
  }

  code = readCode(undefined);
  return { code, literals };
}

// A table name, possibly schema-qualified or quoted, never cut short (`now()` is not the table `no`).
const NAME = '("?[a-z_][a-z0-9_]*"?(?:\\."?[a-z_][a-z0-9_]*"?)?)(?![a-z0-9_."])';
const WRITE_PATTERNS = [
  new RegExp(`\\bINSERT\\s+INTO\\s+${NAME}`, 'g'),
  new RegExp(`\\bUPDATE\\s+(?:ONLY\\s+)?${NAME}(?:\\s+(?:AS\\s+)?[a-z_][a-z0-9_]*)?\\s+SET\\b`, 'g'),
  new RegExp(`\\bDELETE\\s+FROM\\s+(?:ONLY\\s+)?${NAME}`, 'g'),
  new RegExp(`\\bMERGE\\s+INTO\\s+${NAME}`, 'g'),
];
const TRUNCATE = /\bTRUNCATE\s+(?:TABLE\s+)?(?:ONLY\s+)?((?:"?[a-z_][a-z0-9_.]*"?\s*,\s*)*"?[a-z_][a-z0-9_.]*"?)/g;
const READ_PATTERN = new RegExp(`\\b(?:FROM|JOIN)\\s+(?:ONLY\\s+)?${NAME}(?!\\s*\\()`, 'g');
const CTE_NAME = /\b([a-z_][a-z0-9_]*)\s+AS\s+(?:NOT\s+)?(?:MATERIALIZED\s+)?\(/g;
const LOOKS_LIKE_SQL = /\b(SELECT|INSERT|UPDATE|DELETE|TRUNCATE|MERGE|WITH)\b/;

const unquote = (name) => name.replaceAll('"', '');

/** The tables a piece of SQL writes and reads (CTE names left out). */
export function tablesOf(text) {
  const writes = new Set();
  const reads = new Set();
  if (!LOOKS_LIKE_SQL.test(text)) return { writes, reads };
  for (const pattern of WRITE_PATTERNS) for (const match of text.matchAll(pattern)) writes.add(unquote(match[1]));
  for (const match of text.matchAll(TRUNCATE)) for (const name of match[1].split(',')) writes.add(unquote(name.trim()));
  const ctes = new Set([...text.matchAll(CTE_NAME)].map((match) => match[1]));
  for (const match of text.matchAll(READ_PATTERN)) {
    const name = unquote(match[1]);
    if (!ctes.has(name)) reads.add(name);
  }
  return { writes, reads };
}

/** The owning app of a table, undefined for a name the map does not know. */
export function ownerOf(table) {
  if (table in TABLE_OWNERS) return TABLE_OWNERS[table];
  const schema = table.includes('.') ? table.split('.')[0] : undefined;
  if (schema && `${schema}.*` in TABLE_OWNERS) return TABLE_OWNERS[`${schema}.*`];
  if (schema === 'public') return TABLE_OWNERS[table.split('.')[1]];
  return undefined;
}

/**
 * The violations of one file: `file` is its path from the repository root.
 * `rules.queryOutsideRepositories` turns the `.query(` rule on.
 */
export function checkFile(file, source, rules = { queryOutsideRepositories: true }) {
  const violations = [];
  const app = appOf(file);
  const readPath = READ_PATHS.find((path) => path.file === file);
  const { code, literals } = splitSource(source);
  const owner = app ?? file;

  for (const literal of literals) {
    const { writes, reads } = tablesOf(literal);
    for (const table of writes) {
      const tableOwner = ownerOf(table);
      if (tableOwner === undefined) violations.push({ file, rule: 'unknown-table', message: `writes ${table}, which the ownership map does not list` });
      else if (tableOwner !== app) violations.push({ file, rule: 'foreign-write', message: `${owner} writes ${table}, owned by ${tableOwner}` });
    }
    for (const table of reads) {
      const tableOwner = ownerOf(table);
      if (tableOwner === undefined || tableOwner === app || writes.has(table)) continue;
      if (readPath?.tables.includes(table)) continue;
      violations.push({ file, rule: 'foreign-read', message: `${owner} reads ${table}, owned by ${tableOwner}, outside the listed read paths` });
    }
  }

  if (rules.queryOutsideRepositories && !file.endsWith('.repository.ts') && !QUERY_EXCLUSIONS.some((exclusion) => exclusion.file === file)) {
    const calls = code.match(/\.query\s*[<(]/g)?.length ?? 0;
    if (calls > 0) violations.push({ file, rule: 'query-outside-repository', message: `calls .query( ${calls} time(s) outside a *.repository.ts file` });
  }
  return violations;
}

/** The .ts files to scan under `root`, as paths from it. */
export function sourceFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.endsWith('.d.ts') && !isTest(path) && !NOT_SCANNED.some((skip) => path.startsWith(skip.path))) files.push(path);
    }
  };
  for (const top of ['apps', 'libs']) walk(top);
  return files.sort();
}

/** Checks every source file under `root`; violations of `allowKnown` files are returned apart. */
export function checkTree(root, { queryOutsideRepositories = true, allowKnown = [] } = {}) {
  const failing = [];
  const known = [];
  for (const file of sourceFiles(root)) {
    const violations = checkFile(file, readFileSync(join(root, file), 'utf8'), { queryOutsideRepositories });
    (allowKnown.includes(file) ? known : failing).push(...violations);
  }
  return { failing, known };
}

function main(argv) {
  const root = toPosix(relative(process.cwd(), fileURLToPath(new URL('../..', import.meta.url)))) || '.';
  const queryOutsideRepositories = !argv.includes('--no-query-outside-repositories');
  const allowKnown = argv
    .filter((arg) => arg.startsWith('--allow-known='))
    .flatMap((arg) => arg.slice('--allow-known='.length).split(','))
    .filter(Boolean);
  const { failing, known } = checkTree(root, { queryOutsideRepositories, allowKnown });
  for (const violation of known) console.warn(`known, to be fixed: ${violation.file}: ${violation.message} [${violation.rule}]`);
  for (const violation of failing) console.error(`${violation.file}: ${violation.message} [${violation.rule}]`);
  if (failing.length > 0) {
    console.error(`table ownership: ${failing.length} violation(s); see docs/data-access.md#table-ownership`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
