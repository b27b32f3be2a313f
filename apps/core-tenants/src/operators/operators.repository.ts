import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import type { PendingInvitation } from '@platform/contracts';
import { firstRow, rows, run, sql, SqlRunner, TransactionalRepository } from '@platform/database';

export interface NewOperator {
  email: string;
  firstname: string;
  lastname: string | null;
  passwordHash: string;
}

export interface InvitationRow {
  id: string;
  tenantID: string;
  email: string;
  expiresAt: Date;
  acceptedAt: Date | null;
}

export interface NewInvitation {
  id: string;
  tenantID: string;
  email: string;
  tokenHash: string;
  invitedBy: string;
  expiresAt: Date;
}

const EMAIL_TAKEN = sql<{ '?column?': number }, [email: string]>('SELECT 1 FROM operators WHERE email = $1');

const EMAIL_OF = sql<{ email: string }, [operatorID: string]>('SELECT email FROM operators WHERE id = $1');

// The unique index on the address decides, race-free, whether it already has an account.
const CREATE_OPERATOR = sql<{ id: string }, [email: string, firstname: string, lastname: string | null, passwordHash: string]>(
  `INSERT INTO operators (email, firstname, lastname, password_hash) VALUES ($1, $2, $3, $4)
       ON CONFLICT (email) DO NOTHING RETURNING id`,
);

const INVITATION_BY_TOKEN_HASH = sql<InvitationRow, [tokenHash: string]>(
  `SELECT id, tenant_id AS "tenantID", email, expires_at AS "expiresAt", accepted_at AS "acceptedAt"
         FROM operator_invitations WHERE token_hash = $1`,
);

const INVITATION_BY_TOKEN_HASH_FOR_UPDATE = sql<InvitationRow, [tokenHash: string]>(`${INVITATION_BY_TOKEN_HASH.text} FOR UPDATE`);

const ADD_MEMBER = sql<never, [tenantID: string, operatorID: string]>(
  `INSERT INTO memberships (tenant_id, operator_id, role) VALUES ($1, $2, 'member') ON CONFLICT (tenant_id, operator_id) DO NOTHING`,
);

const MARK_ACCEPTED = sql<never, [invitationID: string, acceptedAt: Date, operatorID: string]>(
  'UPDATE operator_invitations SET accepted_at = $2, accepted_operator_id = $3 WHERE id = $1',
);

// Idempotent on the id the caller chose: a retried request inserts nothing more.
const CREATE_INVITATION = sql<{ id: string }, [id: string, tenantID: string, email: string, tokenHash: string, invitedBy: string, expiresAt: Date]>(
  `INSERT INTO operator_invitations (id, tenant_id, email, token_hash, invited_by, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
);

const WITHDRAW_INVITATION = sql<{ tenantID: string }, [invitationID: string]>(
  'DELETE FROM operator_invitations WHERE id = $1 AND accepted_at IS NULL RETURNING tenant_id AS "tenantID"',
);

const WITHDRAW_TENANT_INVITATION = sql<{ tenantID: string }, [invitationID: string, tenantID: string]>(
  'DELETE FROM operator_invitations WHERE id = $1 AND tenant_id = $2 AND accepted_at IS NULL RETURNING tenant_id AS "tenantID"',
);

const PENDING_INVITATION_COUNT = sql<{ totalCount: number }, [tenantID: string, now: Date]>(
  `SELECT count(*)::int AS "totalCount" FROM operator_invitations WHERE tenant_id = $1 AND accepted_at IS NULL AND expires_at > $2`,
);

// Newest first; the id breaks ties so pages never overlap.
const PENDING_INVITATIONS = sql<
  { invitationID: string; operatorEmail: string; invitedBy: string | null; createdAt: Date; expiresAt: Date },
  [tenantID: string, now: Date, limit: number, offset: number]
>(
  `SELECT id AS "invitationID", email AS "operatorEmail", invited_by AS "invitedBy", created_at AS "createdAt", expires_at AS "expiresAt"
     FROM operator_invitations
    WHERE tenant_id = $1 AND accepted_at IS NULL AND expires_at > $2
    ORDER BY created_at DESC, id DESC
    LIMIT $3 OFFSET $4`,
);

const INVITATION_CONTEXT = sql<{ tenantName: string; inviterName: string | null }, [tenantID: string, inviterID: string]>(
  `SELECT t.name AS "tenantName", o.firstname AS "inviterName"
         FROM tenants t LEFT JOIN operators o ON o.id = $2 WHERE t.id = $1`,
);

/** Operators, memberships and invitations as sign-up and invitations use them (addresses normalised). */
@Injectable()
export class OperatorsRepository extends TransactionalRepository {
  async existsWithEmail(email: string): Promise<boolean> {
    return (await rows(this.dataSource, EMAIL_TAKEN, [email])).length > 0;
  }

  async emailOf(operatorID: string, runner: SqlRunner = this.dataSource): Promise<string | undefined> {
    return (await firstRow(runner, EMAIL_OF, [operatorID]))?.email;
  }

  /** The new operator's id, or undefined when the address already has an account. */
  async create(operator: NewOperator, runner: SqlRunner = this.dataSource): Promise<string | undefined> {
    const created = await firstRow(runner, CREATE_OPERATOR, [operator.email, operator.firstname, operator.lastname, operator.passwordHash]);
    return created?.id;
  }

  async invitationByTokenHash(tokenHash: string): Promise<InvitationRow | undefined> {
    return firstRow(this.dataSource, INVITATION_BY_TOKEN_HASH, [tokenHash]);
  }

  /** The invitation, locked until the transaction ends, so two uses of one token cannot both succeed. */
  async lockInvitationByTokenHash(runner: SqlRunner, tokenHash: string): Promise<InvitationRow | undefined> {
    return firstRow(runner, INVITATION_BY_TOKEN_HASH_FOR_UPDATE, [tokenHash]);
  }

  /** The operator joins the invitation's tenant as a member and the invitation is used up (call within one transaction). */
  async acceptInvitation(runner: SqlRunner, invitation: InvitationRow, operatorID: string, now: Date): Promise<void> {
    await run(runner, ADD_MEMBER, [invitation.tenantID, operatorID]);
    await run(runner, MARK_ACCEPTED, [invitation.id, now, operatorID]);
  }

  /** Records the invitation; false when a retry finds it recorded already. */
  async createInvitation(invitation: NewInvitation, runner: SqlRunner = this.dataSource): Promise<boolean> {
    const created = await rows(runner, CREATE_INVITATION, [
      invitation.id,
      invitation.tenantID,
      invitation.email,
      invitation.tokenHash,
      invitation.invitedBy,
      invitation.expiresAt,
    ]);
    return created.length > 0;
  }

  /**
   * Deletes an invitation that was never accepted (of `tenantID` only, when
   * given); answers its tenant, or undefined when there was none.
   */
  async withdrawInvitation(invitationID: string, runner: SqlRunner = this.dataSource, tenantID?: string): Promise<string | undefined> {
    const withdrawn = tenantID === undefined
      ? await firstRow(runner, WITHDRAW_INVITATION, [invitationID])
      : await firstRow(runner, WITHDRAW_TENANT_INVITATION, [invitationID, tenantID]);
    return withdrawn?.tenantID;
  }

  /** Invitations of the tenant neither accepted nor expired at `now` (revoked ones are deleted). */
  async pendingInvitationCount(scope: TenantScope, now: Date): Promise<number> {
    return (await firstRow(this.dataSource, PENDING_INVITATION_COUNT, [scope.tenantID, now]))?.totalCount ?? 0;
  }

  async pendingInvitations(scope: TenantScope, now: Date, limit: number, offset: number): Promise<PendingInvitation[]> {
    const found = await rows(this.dataSource, PENDING_INVITATIONS, [scope.tenantID, now, limit, offset]);
    return found.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString() }));
  }

  /** The tenant's name and the inviter's first name, for the invitation mail; undefined for an unknown tenant. */
  async invitationContext(tenantID: string, inviterID: string): Promise<{ tenantName: string; inviterName: string | null } | undefined> {
    return firstRow(this.dataSource, INVITATION_CONTEXT, [tenantID, inviterID]);
  }
}
