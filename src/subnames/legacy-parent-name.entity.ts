import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A parent name stored while length bounds held the raw input, whose normalised form is outside today's bounds:
 * recorded at start-up (LegacyParentNamesLedger) and kept after its subnames are gone, so an export imports back.
 */
@Entity({ name: 'legacy_parent_names' })
export class LegacyParentNameEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_legacy_parent_names' }) name: string;

  @CreateDateColumn({ name: 'recorded_at', type: 'timestamptz' }) recordedAt: Date;
}
