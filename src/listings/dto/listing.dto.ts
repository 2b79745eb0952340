import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, ValidateIf } from 'class-validator';
import { nameHash } from '../../common/ens/names';
import { canonical, IsEnsName, IsEvmAddress, satisfies } from '../../common/validation/validators';
import { canonicalReservedLabels, fusesProblem, lengthPricesProblem, weiProblem } from '../listing-rules';
import type { ListingEntity } from '../listing.entity';
import { Network, NETWORKS } from '../../signing/mint-context';

const isGiven = (_: object, v: unknown) => v !== undefined;
export const IsWei = () => satisfies('isWei', weiProblem);

/** Path of the admin routes of one listing. */
export class ListingParams {
  @ApiProperty({ enum: NETWORKS, example: 'mainnet' })
  @IsIn(NETWORKS, { message: 'must be mainnet or testnet' })
  network: Network;

  @ApiProperty({ example: 'oak.eth', description: 'Parent name; normalised (ENSIP-15) before use' })
  @IsEnsName(2, { length: [1, 255] })
  parentName: string;
}

/** Body of PUT /admin/listings/{network}/{parentName}: the whole listing (a left-out optional field resets). */
export class PutListingDto {
  @ApiProperty({ example: '5000000000000000', description: 'Base price in wei (decimal string below 2^256)' })
  @IsWei()
  price: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { '1': '100000000000000000', '2': '50000000000000000' },
    description: 'Price in wei by label length in code points ("1" to "255"); other lengths pay `price`',
  })
  @ValidateIf(isGiven)
  @satisfies('isLengthPrices', lengthPricesProblem)
  lengthPrices?: Record<string, string>;

  @ApiProperty({ example: '1000000000000000', description: 'Fee in wei, paid on top of the price' })
  @IsWei()
  fee: string;

  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', description: 'Receives the price' })
  @IsEvmAddress()
  paymentReceiver: string;

  @ApiProperty({ example: false, description: 'Names expire after the years bought; price and fee are per year' })
  @IsBoolean()
  expirable: boolean;

  @ApiProperty({
    example: 65536,
    minimum: 0,
    maximum: 4294967295,
    description:
      'Name Wrapper fuses burned on each minted subname (65536 PARENT_CANNOT_CONTROL; owner-controlled fuses need 65537)',
  })
  @satisfies('isFuses', fusesProblem)
  fuses: number;

  @ApiPropertyOptional({ type: [String], example: ['admin', 'www'], maxItems: 1000 })
  @ValidateIf(isGiven)
  @canonical('isReservedLabels', canonicalReservedLabels)
  reservedLabels?: string[];

  @ApiPropertyOptional({ example: true, default: true, description: 'Only active listings can be minted from' })
  @ValidateIf(isGiven)
  @IsBoolean()
  active?: boolean;
}

export class ListingResponse {
  @ApiProperty({ enum: NETWORKS, example: 'mainnet' }) network: Network;
  @ApiProperty({ example: 'oak.eth' }) parentName: string;
  @ApiProperty({ example: '0x437e3b9bab563acfa6e713f2c6dab6d78deb7bbfd2e9037da34e8d4e5f6e09dd' }) parentNode: string;
  @ApiProperty({ example: '5000000000000000' }) price: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { '1': '100000000000000000' },
  })
  lengthPrices: Record<string, string>;
  @ApiProperty({ example: '1000000000000000' }) fee: string;
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }) paymentReceiver: string;
  @ApiProperty({ example: false }) expirable: boolean;
  @ApiProperty({ example: 65536 }) fuses: number;
  @ApiProperty({ type: [String], example: ['admin', 'www'] }) reservedLabels: string[];
  @ApiProperty({ example: true }) active: boolean;
  @ApiProperty({ example: '2026-11-22T10:00:00.000Z', format: 'date-time' }) createdAt: string;
  @ApiProperty({ example: '2026-11-22T10:05:00.000Z', format: 'date-time' }) updatedAt: string;
}

export function toListingResponse(e: ListingEntity): ListingResponse {
  return {
    network: e.network,
    parentName: e.parentName,
    parentNode: nameHash(e.parentName),
    price: e.price,
    lengthPrices: e.lengthPrices,
    fee: e.fee,
    paymentReceiver: e.paymentReceiver,
    expirable: e.expirable,
    fuses: e.fuses,
    reservedLabels: e.reservedLabels,
    active: e.active,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

/** The listing lookup of the public mint SDK: `MAINNET` (mainnet) or `SEPOLIA` (testnet). */
export const SDK_NETWORKS: Record<string, Network> = { MAINNET: 'mainnet', SEPOLIA: 'testnet' };

export class SdkListingParams {
  @ApiProperty({ enum: Object.keys(SDK_NETWORKS), example: 'MAINNET' })
  @IsIn(Object.keys(SDK_NETWORKS), { message: 'must be MAINNET or SEPOLIA' })
  network: string;

  @ApiProperty({ example: 'oak.eth' })
  @IsEnsName(2, { length: [1, 255] })
  name: string;
}

export class SdkListingResponse {
  @ApiProperty({ example: 'oak.eth' }) name: string;
  @ApiProperty({ enum: Object.keys(SDK_NETWORKS), example: 'MAINNET' }) nameNetwork: string;
  @ApiProperty({ enum: ['L1'], example: 'L1' }) type: 'L1';
}
