import { Injectable } from '@nestjs/common';
import { firstRow, rows, run, sql } from '@platform/database';
import { DataSource } from 'typeorm';
import { ExistingKey, IdempotencyKeyStore, KeyScope, NewClaim, StoredAnswer } from './idempotency-key-store';

type ScopeParams = [app: string, principal: string, tenantID: string, key: string];

/**
 * Takes the key when it is free, when it is past its retention, or when an
 * execution of the same request holds it with a lapsed lease (its process
 * died). Otherwise the row stays as it is and nothing is returned.
 */
const CLAIM = sql<
  { claimed: true },
  [...ScopeParams, fingerprint: string, leaseToken: string, now: Date, leaseUntil: Date, expiresAt: Date]
>(
  `INSERT INTO idempotency_keys AS k
          (app, principal, tenant_id, key, fingerprint, state, lease_token, lease_expires_at, created_at, expires_at)
   VALUES ($1, $2, $3, $4, $5, 'executing', $6, $8, $7, $9)
   ON CONFLICT (app, principal, tenant_id, key) DO UPDATE
      SET fingerprint = EXCLUDED.fingerprint, state = 'executing', lease_token = EXCLUDED.lease_token,
          lease_expires_at = EXCLUDED.lease_expires_at, response_status = NULL, response_headers = NULL,
          response_body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
    WHERE k.expires_at <= $7
       OR (k.state = 'executing' AND k.lease_expires_at <= $7 AND k.fingerprint = EXCLUDED.fingerprint)
   RETURNING true AS claimed`,
);

interface KeyRow {
  fingerprint: string;
  state: 'executing' | 'completed';
  leaseExpiresAt: Date | null;
  expiresAt: Date;
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
}

const FIND = sql<KeyRow, ScopeParams>(
  `SELECT fingerprint, state, lease_expires_at AS "leaseExpiresAt", expires_at AS "expiresAt",
          response_status AS status, response_headers AS headers, response_body AS body
     FROM idempotency_keys
    WHERE app = $1 AND principal = $2 AND tenant_id = $3 AND key = $4`,
);

const COMPLETE = sql<never, [...ScopeParams, leaseToken: string, status: number, headers: string, body: string]>(
  `UPDATE idempotency_keys
      SET state = 'completed', lease_token = NULL, lease_expires_at = NULL,
          response_status = $6, response_headers = $7::jsonb, response_body = $8
    WHERE app = $1 AND principal = $2 AND tenant_id = $3 AND key = $4 AND lease_token = $5`,
);

const RELEASE = sql<never, [...ScopeParams, leaseToken: string]>(
  `DELETE FROM idempotency_keys
    WHERE app = $1 AND principal = $2 AND tenant_id = $3 AND key = $4 AND lease_token = $5`,
);

/** A bounded batch, so that a large backlog never holds many row locks in one statement. */
const DELETE_EXPIRED = sql<never, [app: string, now: Date, batch: number]>(
  `DELETE FROM idempotency_keys
    WHERE ctid = ANY (ARRAY(SELECT ctid FROM idempotency_keys WHERE app = $1 AND expires_at <= $2 LIMIT $3))`,
);

const scopeParams = (scope: KeyScope): ScopeParams => [scope.app, scope.principal, scope.tenantID, scope.key];

/**
 * The `idempotency_keys` table: shared by the apps, each reading and writing
 * only the rows of its own `app` (docs/idempotency.md).
 */
@Injectable()
export class IdempotencyKeysRepository implements IdempotencyKeyStore {
  constructor(private readonly dataSource: DataSource) {}

  async claim(scope: KeyScope, claim: NewClaim): Promise<boolean> {
    const claimed = await firstRow(this.dataSource, CLAIM, [
      ...scopeParams(scope),
      claim.fingerprint,
      claim.leaseToken,
      claim.now,
      claim.leaseUntil,
      claim.expiresAt,
    ]);
    return claimed !== undefined;
  }

  async find(scope: KeyScope): Promise<ExistingKey | undefined> {
    const [row] = await rows(this.dataSource, FIND, scopeParams(scope));
    if (!row) return undefined;
    if (row.state === 'completed') {
      const answer: StoredAnswer = { status: row.status ?? 0, headers: row.headers ?? {}, body: row.body ?? '' };
      return { state: 'completed', fingerprint: row.fingerprint, answer, expiresAt: row.expiresAt };
    }
    return { state: 'executing', fingerprint: row.fingerprint, leaseExpiresAt: row.leaseExpiresAt ?? row.expiresAt, expiresAt: row.expiresAt };
  }

  async complete(scope: KeyScope, leaseToken: string, answer: StoredAnswer): Promise<void> {
    await run(this.dataSource, COMPLETE, [...scopeParams(scope), leaseToken, answer.status, JSON.stringify(answer.headers), answer.body]);
  }

  async release(scope: KeyScope, leaseToken: string): Promise<void> {
    await run(this.dataSource, RELEASE, [...scopeParams(scope), leaseToken]);
  }

  /** Deletes up to `batch` of the app's keys past their retention; returns how many. */
  async deleteExpired(app: string, now: Date, batch: number): Promise<number> {
    return (await run(this.dataSource, DELETE_EXPIRED, [app, now, batch])).count;
  }
}
