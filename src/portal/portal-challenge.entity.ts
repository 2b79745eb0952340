import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A sign-in message the service wrote, waiting for its one attempt; removed by that attempt, whatever its outcome. */
@Entity({ name: 'portal_challenges' })
export class PortalChallengeEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_portal_challenges' }) nonce: string;

  /** Lower-case address the message was issued to. */
  @Column({ type: 'text' }) address: string;

  /** The whole EIP-4361 text, compared byte for byte with the one signed. */
  @Column({ type: 'text' }) message: string;

  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
}
