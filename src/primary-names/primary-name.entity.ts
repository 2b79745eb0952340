import { Column, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { bigintAsNumber } from '../common/persistence/column-transformers';

/**
 * The primary name an address chose (ENSIP-19), with the issuedAt of the signature that chose it. A cleared
 * choice keeps its row (name null), so that no older signature can be replayed after it.
 */
@Entity({ name: 'primary_names' })
// A write that moves a name's address asks which addresses chose it.
@Index('IDX_primary_names_name', ['name'])
export class PrimaryNameEntity {
  /** EIP-55 form. */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_primary_names' }) address: string;

  /** Normalised (ENSIP-15); null when cleared. */
  @Column({ type: 'text', nullable: true }) name: string | null;

  /** Unix seconds of the last accepted signature. */
  @Column({ name: 'issued_at', type: 'bigint', transformer: bigintAsNumber }) issuedAt: number;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
