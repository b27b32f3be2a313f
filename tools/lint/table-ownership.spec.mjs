import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFile, checkTree, tablesOf } from './table-ownership.mjs';

/** A small tree of apps and libraries, each file one case. */
const FIXTURES = {
  // services-api writing core-tenants' table: refused.
  'apps/services-api/src/sign-up/operators.repository.ts': `
    const CREATE = sql<{ id: string }, [string]>(\`INSERT INTO operators (email) VALUES ($1)
       ON CONFLICT (email) DO NOTHING RETURNING id\`);`,
  // services-api reading core-tenants' table outside the read paths: refused.
  'apps/services-api/src/conversations/shortcuts/shortcuts.repository.ts': `
    const LIST = sql<{ id: string }, [string]>('SELECT s.id FROM shortcuts s JOIN memberships m ON m.tenant_id = s.tenant_id WHERE s.id = $1');`,
  // A query outside a repository: refused.
  'apps/services-api/src/campaigns/create-campaign.use-case.ts': `
    export class CreateCampaignUseCase {
      async execute() { await this.dataSource.query('UPDATE campaigns SET name = $2 WHERE id = $1', []); }
    }`,
  // The owner writing its own tables, reading through a CTE and functions: accepted.
  'apps/core-tenants/src/operators/operators.repository.ts': `
    const ACCEPT = sql<never, [string]>(\`WITH used AS (UPDATE operator_invitations SET accepted_at = now() WHERE id = $1 RETURNING tenant_id)
      INSERT INTO memberships (tenant_id) SELECT tenant_id FROM used\`);
    const LOCK = sql<never, [string]>('SELECT id FROM operator_invitations WHERE token_hash = $1 FOR UPDATE');
    const UPSERT = sql<never, []>('INSERT INTO tenants (id) SELECT id FROM unnest($1::uuid[]) AS u(id) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name');`,
  // A listed read path reading what it is allowed to: accepted.
  'libs/auth/src/auth-reads.repository.ts': `const STANDING = sql<never, [string]>('SELECT t.id FROM tenants t LEFT JOIN memberships m ON m.tenant_id = t.id WHERE t.id = $1');`,
  // Prose and comments are not SQL: accepted.
  'apps/services-api/src/conversations/notifications/notifications.controller.ts': `
    // DELETE FROM operators is what we never do here; .query( in a comment is not a call.
    const summary = 'Delete from the list, then update the rest';`,
  // Tests and migrations are not scanned.
  'apps/services-api/src/campaigns/campaigns.spec.ts': `await dataSource.query('DELETE FROM operators');`,
  'libs/database/src/migrations/1-init.ts': `await runner.query('INSERT INTO tenants (id) VALUES (1)');`,
};

describe('table ownership lint', () => {
  let root;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'table-ownership-'));
    for (const [file, text] of Object.entries(FIXTURES)) {
      mkdirSync(join(root, dirname(file)), { recursive: true });
      writeFileSync(join(root, file), text);
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('catches a foreign write, a foreign read outside the read paths and a query outside a repository, and nothing else', () => {
    const { failing, known } = checkTree(root);
    expect(known).toEqual([]);
    expect(failing.map(({ file, rule, message }) => ({ file, rule, message }))).toEqual([
      {
        file: 'apps/services-api/src/campaigns/create-campaign.use-case.ts',
        rule: 'query-outside-repository',
        message: 'calls .query( 1 time(s) outside a *.repository.ts file',
      },
      {
        file: 'apps/services-api/src/conversations/shortcuts/shortcuts.repository.ts',
        rule: 'foreign-read',
        message: 'services-api reads memberships, owned by core-tenants, outside the listed read paths',
      },
      {
        file: 'apps/services-api/src/sign-up/operators.repository.ts',
        rule: 'foreign-write',
        message: 'services-api writes operators, owned by core-tenants',
      },
    ]);
  });

  it('reports the files allowed as known apart, without failing on them', () => {
    const { failing, known } = checkTree(root, { allowKnown: ['apps/services-api/src/campaigns/create-campaign.use-case.ts'] });
    expect(known.map((violation) => violation.rule)).toEqual(['query-outside-repository']);
    expect(failing.map((violation) => violation.rule)).toEqual(['foreign-read', 'foreign-write']);
  });

  it('turns the query rule off only when asked', () => {
    const { failing } = checkTree(root, { queryOutsideRepositories: false });
    expect(failing.map((violation) => violation.rule)).toEqual(['foreign-read', 'foreign-write']);
  });

  it('refuses a library writing a table it does not own, and a write to a table the map does not know', () => {
    expect(checkFile('libs/auth/src/credential-store.ts', `const X = 'DELETE FROM plugin_connections WHERE id = $1';`, {}).map((v) => v.message)).toEqual([
      'libs/auth writes plugin_connections, owned by core-tenants',
    ]);
    expect(checkFile('apps/services-api/src/x/x.repository.ts', `const X = 'TRUNCATE TABLE shortcuts, mystery';`).map((v) => v.rule)).toEqual(['unknown-table']);
  });

  it('reads the tables of each kind of statement', () => {
    const of = (text) => {
      const { writes, reads } = tablesOf(text);
      return { writes: [...writes], reads: [...reads] };
    };
    expect(of('MERGE INTO campaigns c USING contacts s ON c.id = s.id')).toEqual({ writes: ['campaigns'], reads: [] });
    expect(of('DELETE FROM ONLY "pgboss"."job" WHERE id = $1')).toEqual({ writes: ['pgboss.job'], reads: ['pgboss.job'] });
    expect(of('UPDATE sessions AS s SET closed = true FROM messages m WHERE m.session_id = s.id')).toEqual({ writes: ['sessions'], reads: ['messages'] });
    expect(of('SELECT EXTRACT(epoch FROM now() - created_at) FROM shortcuts FOR UPDATE SKIP LOCKED')).toEqual({ writes: [], reads: ['shortcuts'] });
  });
});
