import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const AUDIT_ACTOR_KINDS = ['operator', 'plugin', 'pluginConnection'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/**
 * One administrative action on a tenant (see the migration: append-only,
 * written in the action's transaction). Its indexes are descending and live
 * in the migration only.
 */
@Entity({ name: 'audit_events' })
export class AuditEventEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'audit_events_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  occurredAt!: Date;

  @Column({ type: 'text' })
  action!: string;

  @Column({ name: 'actor_kind', type: 'text' })
  actorKind!: AuditActorKind;

  @Column({ name: 'actor_id', type: 'uuid' })
  actorID!: string;

  @Column({ name: 'request_id', type: 'text', nullable: true })
  requestID!: string | null;

  @Column({ name: 'target_kind', type: 'text' })
  targetKind!: string;

  @Column({ name: 'target_id', type: 'text' })
  targetID!: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  summary!: Record<string, unknown>;

  @Column({ name: 'recorded_by', type: 'text' })
  recordedBy!: string;
}
