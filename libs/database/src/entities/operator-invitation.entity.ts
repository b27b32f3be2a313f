import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { OperatorEntity } from './operator.entity';
import { TenantEntity } from './tenant.entity';

/**
 * A tenant owner's invitation of an address. Signing up with its token (once,
 * before `expiresAt`) creates the operator as a member of the tenant.
 */
@Entity({ name: 'operator_invitations' })
@Index('operator_invitations_tenant_id_email_idx', ['tenantID', 'email'])
export class OperatorInvitationEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'operator_invitations_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  /** Stored normalised (trimmed, lower-cased), like operators.email. */
  @Column({ type: 'text' })
  email!: string;

  /** SHA-256 (hex) of the random invitation token; the token itself is only mailed. */
  @Index('operator_invitations_token_hash_key', { unique: true })
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ name: 'invited_by', type: 'uuid', nullable: true })
  invitedBy!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'accepted_at', type: 'timestamptz', nullable: true })
  acceptedAt!: Date | null;

  @Column({ name: 'accepted_operator_id', type: 'uuid', nullable: true })
  acceptedOperatorID!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'operator_invitations_tenant_id_fkey' })
  tenant?: TenantEntity;

  @ManyToOne(() => OperatorEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'invited_by', foreignKeyConstraintName: 'operator_invitations_invited_by_fkey' })
  inviter?: OperatorEntity;

  @ManyToOne(() => OperatorEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'accepted_operator_id', foreignKeyConstraintName: 'operator_invitations_accepted_operator_id_fkey' })
  acceptedOperator?: OperatorEntity;
}
