import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const NOTIFICATION_FANOUT_KINDS = ['notify', 'clear'] as const;
export type NotificationFanoutKind = (typeof NOTIFICATION_FANOUT_KINDS)[number];

/**
 * A notification fan-out still to do (docs/conversations.md#notifications):
 * written in the transaction of an inbound message to a queued session, or
 * of an assignment or a close, and finished by services-api's background loop.
 */
@Entity({ name: 'notification_fanouts' })
export class NotificationFanoutEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'notification_fanouts_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ name: 'session_id', type: 'uuid' })
  sessionID!: string;

  @Column({ type: 'text' })
  kind!: NotificationFanoutKind;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt!: Date;
}
