import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A transport request core-tenants has acted on (docs/transport.md, Exactly
 * once): written in the same transaction as the handler's change, under the
 * request's id, so a second run of that id (a captured message published
 * again after its Redis claim was deleted) finds it and changes nothing.
 * Kept a day: a request is refused as stale long before.
 */
@Entity({ name: 'handled_transport_requests' })
@Index('handled_transport_requests_handled_at_idx', ['handledAt'])
export class HandledTransportRequestEntity {
  /** Nest's packet id, signed with the message. */
  @PrimaryColumn('text', { name: 'request_id', primaryKeyConstraintName: 'handled_transport_requests_pkey' })
  requestID!: string;

  @Column({ type: 'text' })
  pattern!: string;

  @CreateDateColumn({ name: 'handled_at', type: 'timestamptz' })
  handledAt!: Date;
}
