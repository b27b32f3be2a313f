import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A contact's handle on a channel (a phone number on WhatsApp): how an inbound message finds its contact. */
@Entity({ name: 'contact_handles' })
export class ContactHandleEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid', primaryKeyConstraintName: 'contact_handles_pkey' })
  tenantID!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'contact_handles_pkey' })
  channel!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'contact_handles_pkey' })
  handle!: string;

  @Column({ name: 'contact_id', type: 'uuid' })
  contactID!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
