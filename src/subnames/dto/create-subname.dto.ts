import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { NestedType } from '../../common/validation/nested-type';
import { MAX_RECORDS, MAX_TTL } from '../../common/ens/records';
import { IsFirstOfItsFullName } from './batch-repeats';
import {
  HasNoArrayEntries,
  HasUniqueEntries,
  IsAddressForCoin,
  IsContenthash,
  IsCoinType,
  IsEnsLabel,
  IsEnsName,
  IsEvmAddress,
  IsMetadataKey,
  IsRecordValue,
  IsTextKey,
} from '../../common/validation/validators';

const isGiven = (_: object, v: unknown) => v !== undefined;

/** UTF-16 units of a normalised parent name on the subname routes. */
export const PARENT_NAME_LENGTH: [number, number] = [7, 255];

export class TextRecordDto {
  @ApiProperty({ example: 'com.github', description: 'ENSIP-5 / ENSIP-18 key or reverse-dot service key' })
  @IsTextKey()
  key: string;

  @ApiProperty({ example: 'alice', minLength: 1, maxLength: 2000 })
  @IsRecordValue()
  value: string;
}

export class AddressRecordDto {
  @ApiProperty({ example: 60, description: 'ENSIP-9 / ENSIP-11 coin type (60 eth, 0 btc, 501 sol, 2147492101 base)' })
  @IsCoinType()
  coin: number;

  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })
  @IsAddressForCoin()
  value: string;
}

export class MetadataRecordDto {
  @ApiProperty({ example: 'tier', minLength: 1, maxLength: 255 })
  @IsMetadataKey()
  key: string;

  @ApiProperty({ example: 'gold', minLength: 1, maxLength: 2000 })
  @IsRecordValue()
  value: string;
}

/**
 * Body of POST /subnames; a left-out field keeps its stored value, null clears an optional scalar. Once the
 * pipe has built it, every value is canonical: label and parentName ENSIP-15 normalised, address values in
 * their coin's canonical text (EIP-55 for EVM chains), owner EIP-55, contenthash as its URI. Length bounds hold
 * the normalised names (what is stored), so whatever is stored can be sent back as it is.
 */
export class CreateSubnameDto {
  @ApiProperty({ example: 'oak.eth', minLength: PARENT_NAME_LENGTH[0], maxLength: PARENT_NAME_LENGTH[1] })
  @IsEnsName(2, { length: PARENT_NAME_LENGTH })
  parentName: string;

  @ApiProperty({ example: 'try-it', minLength: 1, maxLength: 255 })
  @IsEnsLabel({ length: [1, 255] })
  @IsFirstOfItsFullName() // fails only inside POST /subnames/batch, for an item repeating an earlier fullName
  label: string;

  @ApiPropertyOptional({
    type: [TextRecordDto],
    maxItems: MAX_RECORDS,
    example: [
      { key: 'avatar', value: 'https://example.com/alice.png' },
      { key: 'com.github', value: 'alice' },
    ],
  })
  @ValidateIf(isGiven)
  @IsArray()
  @ArrayMaxSize(MAX_RECORDS)
  @HasUniqueEntries('key')
  @HasNoArrayEntries()
  @ValidateNested({ each: true })
  @NestedType(() => TextRecordDto)
  texts?: TextRecordDto[];

  @ApiPropertyOptional({
    type: [AddressRecordDto],
    maxItems: MAX_RECORDS,
    example: [
      { coin: 60, value: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
      { coin: 0, value: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
      { coin: 501, value: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
      { coin: 2147492101, value: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
    ],
  })
  @ValidateIf(isGiven)
  @IsArray()
  @ArrayMaxSize(MAX_RECORDS)
  @HasUniqueEntries('coin')
  @HasNoArrayEntries()
  @ValidateNested({ each: true })
  @NestedType(() => AddressRecordDto)
  addresses?: AddressRecordDto[];

  @ApiPropertyOptional({ type: [MetadataRecordDto], maxItems: MAX_RECORDS, example: [{ key: 'tier', value: 'gold' }] })
  @ValidateIf(isGiven)
  @IsArray()
  @ArrayMaxSize(MAX_RECORDS)
  @HasUniqueEntries('key')
  @HasNoArrayEntries()
  @ValidateNested({ each: true })
  @NestedType(() => MetadataRecordDto)
  metadata?: MetadataRecordDto[];

  @ApiPropertyOptional({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', nullable: true, type: String })
  @IsOptional()
  @IsEvmAddress()
  owner?: string | null;

  @ApiPropertyOptional({
    example: 'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4',
    nullable: true,
    type: String,
    description: 'ipfs://, ipns://, bzz://, sia://, ar://, onion://, onion3:// URI or 0x-encoded ENSIP-7 bytes',
  })
  @IsOptional()
  @IsContenthash()
  contenthash?: string | null;

  @ApiPropertyOptional({ example: 3600, minimum: 0, maximum: MAX_TTL, nullable: true, type: Number })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_TTL)
  ttl?: number | null;
}
