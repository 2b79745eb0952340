import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Label rules of a policy, lengths of the normalised label. */
export interface LabelRules {
  minLength: number;
  maxLength: number;
  /** Normalised labels. */
  reserved: string[];
}

/** The text keys and coin types a holder may set; "*" for all that section 2 accepts. */
export interface HolderRecordRules {
  texts: string[];
  addresses: (number | '*')[];
  contenthash: boolean;
}

export type ClaimMode = 'closed' | 'open' | 'allowlist';

/** What holders may do under one parent, and the key whose quota their claims use. */
@Entity({ name: 'holder_policies' })
export class HolderPolicyEntity {
  /** Normalised. */
  @PrimaryColumn({ name: 'parent_name', type: 'text', primaryKeyConstraintName: 'PK_holder_policies' })
  parentName: string;

  @Column({ type: 'text' }) claims: ClaimMode;

  /** Lower-case addresses. */
  @Column({ type: 'jsonb', default: [] }) allowlist: string[];

  @Column({ name: 'claims_per_address', type: 'integer' }) claimsPerAddress: number;

  @Column({ type: 'jsonb' }) labels: LabelRules;

  @Column({ name: 'holder_records', type: 'jsonb' }) holderRecords: HolderRecordRules;

  @Column({ type: 'boolean' }) transfers: boolean;

  @Column({ type: 'boolean' }) deletes: boolean;

  @Column({ name: 'charged_key_id', type: 'uuid' }) chargedKeyId: string;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
