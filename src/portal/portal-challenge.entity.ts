import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A sign-in message the service wrote, waiting for its one attempt; removed by that attempt, whatever its outcome. */
@Entity({ name: 'portal_challenges' })
@Index('IDX_portal_challenges_address_expires_at', ['address', 'expiresAt'])
@Index('IDX_portal_challenges_client_expires_at', ['client', 'expiresAt'])
export class PortalChallengeEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_portal_challenges' }) nonce: string;

  /** Lower-case address the message was issued to. */
  @Column({ type: 'text' }) address: string;

  /** The client address that asked for it (as the rate limits see it); null on rows older than the bound. */
  @Column({ type: 'text', nullable: true }) client: string | null;

  /** The whole EIP-4361 text, compared byte for byte with the one signed. */
  @Column({ type: 'text' }) message: string;

  @Index('IDX_portal_challenges_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
