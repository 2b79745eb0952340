import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column({ type: 'text' }) name: string;

  /** The readable start of the key, for operators to tell keys apart. */
  @Column({ name: 'key_prefix', type: 'text' }) keyPrefix: string;

  /** SHA-256 of the whole key, hex; the key itself is never stored. */
  @Index('UQ_api_keys_key_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash: string;

  /** After a rotation with a grace period: the digest of the previous key, accepted until the time below. */
  @Index('UQ_api_keys_previous_key_hash', { unique: true, where: '"previous_key_hash" IS NOT NULL' })
  @Column({ name: 'previous_key_hash', type: 'char', length: 64, nullable: true })
  previousKeyHash: string | null;

  @Column({ name: 'previous_key_expires_at', type: 'timestamptz', nullable: true }) previousKeyExpiresAt: Date | null;

  @Column({ name: 'parent_names', type: 'text', array: true }) parentNames: string[];

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true }) expiresAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;

  /** The wallet (lower-case address) that issued the key through the developer portal; null for admin keys. */
  @Index('IDX_api_keys_issued_by')
  @Column({ name: 'issued_by', type: 'text', nullable: true })
  issuedBy: string | null;

  /** Why a portal key is suspended (its issuer no longer controls a parent); null while it works. */
  @Column({ name: 'suspended_reason', type: 'text', nullable: true }) suspendedReason: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
