import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ClaimMode, HolderPolicyEntity, HolderRecordRules, LabelRules } from '../holder-policy.entity';

/** A parent's policy with every default filled in. */
export class PolicyResponse {
  @ApiProperty({ example: 'oak.eth' }) parentName: string;
  @ApiProperty({ enum: ['closed', 'open', 'allowlist'], example: 'open' }) claims: ClaimMode;
  @ApiPropertyOptional({
    type: [String],
    example: ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    description: 'EIP-55; given to the key that set it only (the public read shows allowlistSize)',
  })
  allowlist?: string[];
  @ApiProperty({ example: 0, description: 'Addresses on the allowlist' }) allowlistSize: number;
  @ApiProperty({ example: 1 }) claimsPerAddress: number;
  @ApiProperty({ example: { minLength: 3, maxLength: 63, reserved: ['admin'] } }) labels: LabelRules;
  @ApiProperty({ example: { texts: ['*'], addresses: ['*'], contenthash: true } }) holderRecords: HolderRecordRules;
  @ApiProperty({ example: true }) transfers: boolean;
  @ApiProperty({ example: true }) deletes: boolean;
  @ApiProperty({ example: '6f1d3c1e-8a0b-4f7e-9b2a-1c3d5e7f9a0b', description: 'The key whose quota claims use' })
  chargedKeyId: string;
  @ApiProperty({ example: '2026-11-27T05:00:00.000Z' }) updatedAt: string;
}

/** `withAllowlist`: the key's own view (PUT); the public read leaves the list out. */
export function toPolicyResponse(e: HolderPolicyEntity, withAllowlist: boolean): PolicyResponse {
  return {
    parentName: e.parentName,
    claims: e.claims,
    ...(withAllowlist ? { allowlist: e.allowlist } : {}),
    allowlistSize: e.allowlist.length,
    claimsPerAddress: e.claimsPerAddress,
    labels: e.labels,
    holderRecords: e.holderRecords,
    transfers: e.transfers,
    deletes: e.deletes,
    chargedKeyId: e.chargedKeyId,
    updatedAt: e.updatedAt.toISOString(),
  };
}
