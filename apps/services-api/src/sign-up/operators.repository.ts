import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

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

/** The rows sign-up reads and writes: operators, memberships and invitations (raw SQL, addresses normalised). */
@Injectable()
export class OperatorsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async existsWithEmail(email: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM operators WHERE email = $1', [email]);
    return rows.length > 0;
  }

  /** The new operator's id, or undefined when the address already has an account (the unique index decides, race-free). */
  async emailOf(operatorID: string): Promise<string | undefined> {
    const rows: { email: string }[] = await this.dataSource.query('SELECT email FROM operators WHERE id = $1', [operatorID]);
    return rows[0]?.email;
  }

  async create(operator: NewOperator, manager: EntityManager | DataSource = this.dataSource): Promise<string | undefined> {
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO operators (email, firstname, lastname, password_hash) VALUES ($1, $2, $3, $4)
       ON CONFLICT (email) DO NOTHING RETURNING id`,
      [operator.email, operator.firstname, operator.lastname, operator.passwordHash],
    );
    return rows[0]?.id;
  }

  async invitationByTokenHash(tokenHash: string, manager: EntityManager | DataSource = this.dataSource, forUpdate = false): Promise<InvitationRow | undefined> {
    const rows: InvitationRow[] = await manager.query(
      `SELECT id, tenant_id AS "tenantID", email, expires_at AS "expiresAt", accepted_at AS "acceptedAt"
         FROM operator_invitations WHERE token_hash = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [tokenHash],
    );
    return rows[0];
  }

  async acceptInvitation(manager: EntityManager, invitation: InvitationRow, operatorID: string, now: Date): Promise<void> {
    await manager.query(
      `INSERT INTO memberships (tenant_id, operator_id, role) VALUES ($1, $2, 'member') ON CONFLICT (tenant_id, operator_id) DO NOTHING`,
      [invitation.tenantID, operatorID],
    );
    await manager.query('UPDATE operator_invitations SET accepted_at = $2, accepted_operator_id = $3 WHERE id = $1', [invitation.id, now, operatorID]);
  }

  async createInvitation(
    manager: EntityManager,
    invitation: { tenantID: string; email: string; tokenHash: string; invitedBy: string; expiresAt: Date },
  ): Promise<string> {
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO operator_invitations (tenant_id, email, token_hash, invited_by, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [invitation.tenantID, invitation.email, invitation.tokenHash, invitation.invitedBy, invitation.expiresAt],
    );
    return rows[0].id;
  }

  /** The tenant's name and the inviter's first name, for the invitation mail. */
  async invitationContext(tenantID: string, inviterID: string): Promise<{ tenantName: string; inviterName: string | null }> {
    const rows: { tenantName: string; inviterName: string | null }[] = await this.dataSource.query(
      `SELECT t.name AS "tenantName", o.firstname AS "inviterName"
         FROM tenants t LEFT JOIN operators o ON o.id = $2 WHERE t.id = $1`,
      [tenantID, inviterID],
    );
    return rows[0];
  }
}
