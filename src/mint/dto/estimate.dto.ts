import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, Max, Min, ValidateIf } from 'class-validator';
import { IsEnsLabel, IsEnsName, IsEvmAddress } from '../../common/validation/validators';
import { MAX_YEARS } from '../../listings/pricing';
import { QueryBoolean, QueryInteger } from '../../common/http/query';

const isGiven = (_: object, v: unknown) => v !== undefined;

export const MINT_VALIDATION_ERRORS = ['LISTING_NOT_FOUND', 'SUBNAME_RESERVED', 'SUBNAME_TAKEN'] as const;
export type MintValidationError = (typeof MINT_VALIDATION_ERRORS)[number];

/** Query of GET /mint/estimate and GET /minting-parameters/estimated. */
export class EstimateQueryDto {
  @ApiProperty({ example: 'alice' })
  @IsEnsLabel({ length: [1, 255] })
  label: string;

  @ApiProperty({ example: 'oak.eth' })
  @IsEnsName(2, { length: [1, 255] })
  parentName: string;

  @ApiPropertyOptional({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', description: 'Checked when given' })
  @ValidateIf(isGiven)
  @IsEvmAddress()
  minterAddress?: string;

  @ApiPropertyOptional({ example: 1, minimum: 1, maximum: MAX_YEARS, default: 1, type: Number })
  @QueryInteger()
  @ValidateIf(isGiven)
  @IsInt()
  @Min(1)
  @Max(MAX_YEARS)
  expiryInYears?: number;

  @ApiPropertyOptional({ example: false, default: false, type: Boolean, description: '`true` or `false`' })
  @QueryBoolean()
  @ValidateIf(isGiven)
  @IsBoolean()
  isTestnet?: boolean;
}

export class EstimateResponse {
  @ApiProperty({ example: true, description: 'True when validationErrors is empty' }) canMint: boolean;
  @ApiProperty({ example: '5000000000000000', description: 'Wei for the years asked (0 without a listing)' })
  price: string;
  @ApiProperty({ example: '1000000000000000', description: 'Wei for the years asked (0 without a listing)' })
  fee: string;
  @ApiProperty({ example: 0.005, description: 'price in ETH, as a JSON number (display only)' })
  estimatedPriceEth: number;
  @ApiProperty({ example: 0.001, description: 'fee in ETH, as a JSON number (display only)' })
  estimatedFeeEth: number;
  @ApiProperty({
    example: true,
    description:
      'True when the fee is the listing’s fixed fee paid on top of the price (price + fee is sent; the price ' +
      'reaches the payment receiver whole). Every listing of this service works so; false only without a listing.',
  })
  isStandardFee: boolean;
  @ApiProperty({ enum: MINT_VALIDATION_ERRORS, isArray: true, example: [] })
  validationErrors: MintValidationError[];
}
