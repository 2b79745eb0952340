import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, Max, Min, ValidateNested } from 'class-validator';
import { normalizeName } from '../../common/ens/names';
import {
  checkedAddress,
  checkedContenthash,
  coinProblem,
  MAX_RECORDS,
  recordValueProblem,
  textKeyProblem,
} from '../../common/ens/records';
import { NestedType } from '../../common/validation/nested-type';
import { HasNoArrayEntries, HasUniqueEntries, IsEvmAddress, satisfies } from '../../common/validation/validators';

/** Hex of a signature: 65 bytes for an account with a key, longer for ERC-1271 and ERC-6492 contract accounts. */
const SIGNATURE = /^0x(?:[0-9a-fA-F]{2}){65,8192}$/;

/** A subname exactly as signed: already ENSIP-15 normalised, at least three labels. */
function signedNameProblem(raw: unknown): string | null {
  if (typeof raw !== 'string') return 'must be a string';
  if (raw.length > 255) return 'must be shorter than or equal to 255 characters';
  try {
    const normal = normalizeName(raw, 3);
    return normal === raw ? null : `must be ENSIP-15 normalised, as signed: ${normal}`;
  } catch (e) {
    return (e as Error).message;
  }
}

/** "" (remove, or nothing on a claim) or a value section 2 accepts. */
function optionalValue(problem: (v: unknown) => string | null) {
  return (v: unknown) => (v === '' ? null : problem(v));
}

export class HolderTextDto {
  @ApiProperty({ example: 'description' })
  @satisfies('isTextKey', textKeyProblem)
  key: string;

  @ApiProperty({ example: 'Alice', description: '"" removes the key' })
  @satisfies('isRecordValue', optionalValue(recordValueProblem))
  value: string;
}

export class HolderAddressDto {
  @ApiProperty({ example: 60 })
  @satisfies('isCoinType', coinProblem)
  coin: number;

  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', description: '"" removes the coin' })
  @satisfies('isAddressForCoin', (v, args) => {
    if (v === '') return null;
    try {
      checkedAddress((args.object as HolderAddressDto).coin, v);
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  })
  value: string;
}

const NAME = () => satisfies('isSignedName', signedNameProblem);
const ISSUED_AT = () => (target: object, key: string | symbol) => {
  IsInt()(target, key);
  Min(0)(target, key);
  Max(Number.MAX_SAFE_INTEGER)(target, key);
};
const RECORDS = (cls: () => new () => object, unique: string) => (target: object, key: string | symbol) => {
  IsArray()(target, key);
  ArrayMaxSize(MAX_RECORDS)(target, key);
  HasUniqueEntries(unique)(target, key);
  HasNoArrayEntries()(target, key);
  ValidateNested({ each: true })(target, key);
  NestedType(cls)(target, key);
};
const SIGNATURE_CHECK = () =>
  satisfies('isSignature', (raw) =>
    typeof raw === 'string' && SIGNATURE.test(raw) ? null : 'must be 0x-prefixed hex of 65 bytes or more',
  );

export class ClaimMessageDto {
  @ApiProperty({ example: 'alice.oak.eth', description: 'ENSIP-15 normalised, as signed' }) @NAME() name: string;
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', description: 'The claimer, who signs' })
  @IsEvmAddress()
  owner: string;
  @ApiProperty({ type: [HolderTextDto] }) @RECORDS(() => HolderTextDto, 'key') texts: HolderTextDto[];
  @ApiProperty({ type: [HolderAddressDto] })
  @RECORDS(() => HolderAddressDto, 'coin')
  addresses: HolderAddressDto[];
  @ApiProperty({ example: 1795800000, description: 'Unix seconds' }) @ISSUED_AT() issuedAt: number;
}

export class SetRecordsMessageDto {
  @ApiProperty({ example: 'alice.oak.eth' }) @NAME() name: string;
  @ApiProperty({ type: [HolderTextDto] }) @RECORDS(() => HolderTextDto, 'key') texts: HolderTextDto[];
  @ApiProperty({ type: [HolderAddressDto] })
  @RECORDS(() => HolderAddressDto, 'coin')
  addresses: HolderAddressDto[];
  @ApiProperty({ example: '', description: '"" keeps the contenthash, "0x" clears it, else an ENSIP-7 URI or bytes' })
  @satisfies('isContenthash', (v) => {
    if (v === '' || v === '0x') return null;
    try {
      checkedContenthash(v);
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  })
  contenthash: string;
  @ApiProperty({ example: 1795800000 }) @ISSUED_AT() issuedAt: number;
}

export class TransferMessageDto {
  @ApiProperty({ example: 'alice.oak.eth' }) @NAME() name: string;
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }) @IsEvmAddress() newOwner: string;
  @ApiProperty({ example: 1795800000 }) @ISSUED_AT() issuedAt: number;
}

export class DeleteMessageDto {
  @ApiProperty({ example: 'alice.oak.eth' }) @NAME() name: string;
  @ApiProperty({ example: 1795800000 }) @ISSUED_AT() issuedAt: number;
}

const SIGNATURE_DOC = {
  example: `0x${'ab'.repeat(65)}`,
  description: "The EIP-712 signature of the message (the holder's; the owner's for a claim)",
};

export class ClaimDto extends ClaimMessageDto {
  @ApiProperty(SIGNATURE_DOC) @SIGNATURE_CHECK() signature: string;
}
export class SetRecordsDto extends SetRecordsMessageDto {
  @ApiProperty(SIGNATURE_DOC) @SIGNATURE_CHECK() signature: string;
}
export class TransferDto extends TransferMessageDto {
  @ApiProperty(SIGNATURE_DOC) @SIGNATURE_CHECK() signature: string;
}
export class DeleteDto extends DeleteMessageDto {
  @ApiProperty(SIGNATURE_DOC) @SIGNATURE_CHECK() signature: string;
}

/** What eth_signTypedData_v4 takes: the domain, the types (EIP712Domain included), the primary type, the message. */
export class HolderTypedDataResponse {
  @ApiProperty({ example: { name: 'ENS subname service', version: '1', chainId: 1 } })
  domain: { name: string; version: string; chainId: number };

  @ApiProperty({
    type: 'object',
    additionalProperties: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, type: { type: 'string' } } },
    },
    example: { Delete: [{ name: 'name', type: 'string' }] },
  })
  types: Record<string, { name: string; type: string }[]>;

  @ApiProperty({ example: 'Delete' }) primaryType: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { name: 'alice.oak.eth', issuedAt: 1795800000, service: 'https://subnames.example.com' },
  })
  message: Record<string, unknown>;
}
