import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { normalizeName } from '../../common/ens/names';
import { IsEvmAddress, satisfies } from '../../common/validation/validators';

/** Hex of a signature: 65 bytes for an account with a key, longer for ERC-1271 and ERC-6492 contract accounts. */
const SIGNATURE = /^0x(?:[0-9a-fA-F]{2}){65,8192}$/;
const MAX_NAME_LENGTH = 255;

/** The name exactly as signed: "" (clear) or a name already in its ENSIP-15 normalised form. */
export function primaryNameProblem(raw: unknown): string | null {
  if (typeof raw !== 'string') return 'must be a string';
  if (raw === '') return null;
  if (raw.length > MAX_NAME_LENGTH) return `must be shorter than or equal to ${MAX_NAME_LENGTH} characters`;
  let normalized: string;
  try {
    normalized = normalizeName(raw, 2);
  } catch (e) {
    return (e as Error).message;
  }
  return normalized === raw ? null : `must be ENSIP-15 normalised, as signed: ${normalized}`;
}

export class SetPrimaryNameDto {
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', description: 'The address whose name it is' })
  @IsEvmAddress()
  address: string;

  @ApiProperty({
    example: 'alice.oak.eth',
    description: 'A name stored here, ENSIP-15 normalised, whose coin-60 address is `address`; "" clears the choice',
  })
  @satisfies('isPrimaryName', primaryNameProblem)
  name: string;

  @ApiProperty({
    example: 1795800000,
    description:
      'Unix seconds of the signature: at most 10 minutes old, at most 60 s ahead, and later than the last one accepted for this address',
  })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  issuedAt: number;

  @ApiProperty({
    example: `0x${'ab'.repeat(65)}`,
    description:
      "The address's EIP-712 signature of PrimaryName(address addr,string name,uint256 issuedAt,string service) " +
      'with the domain {name: "ENS subname service", version: "1", chainId: ENS_CHAIN_ID} and service the origin ' +
      'of PUBLIC_URL; ERC-1271 and ERC-6492 signatures of contract accounts are checked on chain',
  })
  @satisfies('isSignature', (raw) =>
    typeof raw === 'string' && SIGNATURE.test(raw) ? null : 'must be 0x-prefixed hex of 65 bytes or more',
  )
  signature: string;
}
