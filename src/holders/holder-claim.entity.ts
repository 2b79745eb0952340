import { Column, Entity, PrimaryColumn } from 'typeorm';

/** How many names an address has claimed under a parent, ever (transfers and deletes give none back). */
@Entity({ name: 'holder_claims' })
export class HolderClaimEntity {
  @PrimaryColumn({ name: 'parent_name', type: 'text', primaryKeyConstraintName: 'PK_holder_claims' })
  parentName: string;

  /** Lower-case. */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_holder_claims' }) address: string;

  @Column({ type: 'integer' }) claims: number;
}
