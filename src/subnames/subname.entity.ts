import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { bigintAsNumber } from '../common/persistence/column-transformers';

/** Record maps as stored: texts and metadata by key, addresses by decimal coin type. */
export type RecordMap = Record<string, string>;

@Entity({ name: 'subnames' })
@Index('IDX_subnames_parent_created', ['parentName', 'createdAt', 'id'])
// Search indexes that TypeORM cannot express (GIN opclasses, an expression); see the SearchIndexes migration.
@Index('IDX_subnames_label_trgm', { synchronize: false })
@Index('IDX_subnames_parent_metadata', { synchronize: false })
@Index('IDX_subnames_owner_parent_created', { synchronize: false })
// The export's prefix ranges over reversed full names; see the ExportIndex migration.
@Index('IDX_subnames_full_name_reversed', { synchronize: false })
export class SubnameEntity {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Index('UQ_subnames_full_name', { unique: true })
  @Column({ name: 'full_name', type: 'text' })
  fullName: string;

  @Column({ name: 'parent_name', type: 'text' }) parentName: string;

  @Column({ type: 'text' }) label: string;

  @Column({ type: 'char', length: 66 }) namehash: string;

  @Column({ type: 'jsonb', default: {} }) texts: RecordMap;

  @Column({ type: 'jsonb', default: {} }) addresses: RecordMap;

  @Column({ type: 'jsonb', default: {} }) metadata: RecordMap;

  @Column({ type: 'text', nullable: true }) contenthash: string | null;

  /** EIP-55 form. */
  @Column({ type: 'text', nullable: true }) owner: string | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintAsNumber }) ttl: number | null;

  @Column({ name: 'created_by', type: 'uuid', nullable: true }) createdBy: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
