import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { Network } from '../signing/mint-context';
import { bigintAsNumber } from '../common/persistence/column-transformers';

/** What a parent name sells its subnames for, on one network. Wei amounts are numeric(78,0), read as strings. */
@Entity({ name: 'listings' })
@Index('UQ_listings_network_parent', ['network', 'parentName'], { unique: true })
@Check('CHK_listings_network', `"network" IN ('mainnet', 'testnet')`)
@Check('CHK_listings_fuses', `"fuses" >= 0 AND "fuses" <= 4294967295`)
export class ListingEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_listings' }) id: string;

  @Column({ type: 'text' }) network: Network;

  /** Normalised (ENSIP-15). */
  @Column({ name: 'parent_name', type: 'text' }) parentName: string;

  @Column({ type: 'numeric', precision: 78, scale: 0 }) price: string;

  /** Label length in code points → wei. */
  @Column({ name: 'length_prices', type: 'jsonb' }) lengthPrices: Record<string, string>;

  @Column({ type: 'numeric', precision: 78, scale: 0 }) fee: string;

  /** EIP-55 form. */
  @Column({ name: 'payment_receiver', type: 'text' }) paymentReceiver: string;

  @Column({ type: 'boolean' }) expirable: boolean;

  @Column({ type: 'bigint', transformer: bigintAsNumber }) fuses: number;

  /** Normalised labels. */
  @Column({ name: 'reserved_labels', type: 'text', array: true }) reservedLabels: string[];

  @Column({ type: 'boolean' }) active: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
