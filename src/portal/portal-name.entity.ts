import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A name a wallet proved on chain that it controls, with the role found at the last check. */
@Entity({ name: 'portal_names' })
export class PortalNameEntity {
  /** Lower-case address. */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_portal_names' }) address: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_portal_names' }) name: string;

  @Column({ type: 'text' }) role: string;

  @Column({ type: 'boolean' }) wrapped: boolean;

  @Column({ name: 'checked_at', type: 'timestamptz' }) checkedAt: Date;
}
