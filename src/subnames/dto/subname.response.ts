import { ApiProperty } from '@nestjs/swagger';
import { coinName } from '../../common/ens/records';
import type { SubnameEntity } from '../subname.entity';

export class SubnameResponse {
  @ApiProperty({ example: '6f1d3c1e-8a0b-4f7e-9b2a-1c3d5e7f9a0b' }) id: string;
  @ApiProperty({ example: 'alice.oak.eth' }) fullName: string;
  @ApiProperty({ example: 'oak.eth' }) parentName: string;
  @ApiProperty({ example: 'alice' }) label: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { avatar: 'https://example.com/alice.png', 'com.github': 'alice' },
  })
  texts: Record<string, string>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description:
      'Keyed by the coin name that @ensdomains/address-encoder gives the coin type; by the decimal coin type ("60") when the request sends x-address-keys: coin-type',
    example: {
      eth: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      btc: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      sol: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
      base: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    },
  })
  addresses: Record<string, string>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { tier: 'gold' } })
  metadata: Record<string, string>;
  @ApiProperty({ example: '0xcdf7581bf874b959e7c4d1988cda7ec94c543a2232b18c18114f4b7ed87baa68' }) namehash: string;
  @ApiProperty({
    example: 'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4',
    nullable: true,
    type: String,
  })
  contenthash: string | null;
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', nullable: true, type: String }) owner:
    string | null;
  @ApiProperty({ example: 3600, nullable: true, type: Number }) ttl: number | null;
  @ApiProperty({ example: '2026-11-22T10:00:00.000Z', format: 'date-time' }) createdAt: string;
  @ApiProperty({ example: '2026-11-22T10:05:00.000Z', format: 'date-time' }) updatedAt: string;
}

/** Stored coin types become the coin names the specification shows (60 → eth). */
function addressesByName(byCoinType: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [coinType, value] of Object.entries(byCoinType)) out[coinName(Number(coinType)) ?? coinType] = value;
  return out;
}

export function toSubnameResponse(e: SubnameEntity): SubnameResponse {
  return {
    id: e.id,
    fullName: e.fullName,
    parentName: e.parentName,
    label: e.label,
    texts: e.texts,
    addresses: addressesByName(e.addresses),
    metadata: e.metadata,
    namehash: e.namehash,
    contenthash: e.contenthash,
    owner: e.owner,
    ttl: e.ttl,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}
