import { Column, CreateDateColumn, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { SessionEntity } from './session.entity';

/** The AI summary of a session (at most one; a new summary replaces the old). */
@Entity({ name: 'session_summaries' })
export class SessionSummaryEntity {
  @PrimaryColumn({ name: 'session_id', type: 'uuid', primaryKeyConstraintName: 'session_summaries_pkey' })
  sessionID!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  /** Free-form object (the API does not fix its structure). */
  @Column({ type: 'jsonb' })
  summary!: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @OneToOne(() => SessionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id', foreignKeyConstraintName: 'session_summaries_session_id_fkey' })
  session?: SessionEntity;
}
