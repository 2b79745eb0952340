import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A signed-in wallet. The cookie's id is stored only as its SHA-256 digest. */
@Entity({ name: 'portal_sessions' })
export class PortalSessionEntity {
  @PrimaryColumn({ name: 'id_hash', type: 'char', length: 64, primaryKeyConstraintName: 'PK_portal_sessions' })
  idHash: string;

  /** Lower-case address. */
  @Index('IDX_portal_sessions_address')
  @Column({ type: 'text' })
  address: string;

  @Column({ name: 'csrf_token', type: 'text' }) csrfToken: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz', default: () => 'now()' }) lastSeenAt: Date;
}
