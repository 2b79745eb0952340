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

  @Column({ name: 'parent_names', type: 'text', array: true }) parentNames: string[];

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true }) expiresAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
