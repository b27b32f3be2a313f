import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'operators' })
export class OperatorEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'operators_pkey' })
  id!: string;

  /** Stored normalised (trimmed, lower-cased); unique across the platform. */
  @Index('operators_email_key', { unique: true })
  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'text' })
  firstname!: string;

  @Column({ type: 'text', nullable: true })
  lastname!: string | null;

  /** bcrypt hash (libs/auth/src/passwords.ts). */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
