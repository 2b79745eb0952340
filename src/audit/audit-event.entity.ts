import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One recorded change, written in the transaction of the change itself. Append-only: a trigger of the
 * AuditTrail migration refuses UPDATE and DELETE. `before` and `after` hold only the fields that changed,
 * never a secret.
 */
@Entity({ name: 'audit_events' })
@Index('IDX_audit_events_at', ['at', 'id'])
@Index('IDX_audit_events_actor_at', ['actor', 'at', 'id'])
@Index('IDX_audit_events_subject_at', ['subject', 'at', 'id'])
export class AuditEventEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'PK_audit_events' }) id: string;

  @Column({ type: 'timestamptz', default: () => 'now()' }) at: Date;

  /** The API key id, or `admin`. */
  @Column({ type: 'text' }) actor: string;

  @Column({ name: 'request_id', type: 'text' }) requestId: string;

  @Column({ type: 'text' }) action: string;

  /** A key id, `network/parentName` for a listing, or a subname's full name. */
  @Column({ type: 'text' }) subject: string;

  @Column({ type: 'jsonb', nullable: true }) before: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true }) after: Record<string, unknown> | null;
}
