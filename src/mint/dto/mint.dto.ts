import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, Max, Min, ValidateIf } from 'class-validator';
import { IsEnsLabel, IsEnsName, IsEvmAddress } from '../../common/validation/validators';
import { MAX_YEARS } from '../../listings/pricing';

const isGiven = (_: object, v: unknown) => v !== undefined;

/** Body of POST /mint and POST /minting-parameters; the pipe hands it over normalised and EIP-55. */
export class MintRequestDto {
  @ApiProperty({ example: 'alice', minLength: 1, maxLength: 255, description: 'Normalised (ENSIP-15) before use' })
  @IsEnsLabel({ length: [1, 255] })
  label: string;

  @ApiProperty({ example: 'oak.eth', minLength: 1, maxLength: 255 })
  @IsEnsName(2, { length: [1, 255] })
  parentName: string;

  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', description: 'Must send the mint transaction' })
  @IsEvmAddress()
  minterAddress: string;

  @ApiPropertyOptional({ example: 1, minimum: 1, maximum: MAX_YEARS, default: 1 })
  @ValidateIf(isGiven)
  @IsInt()
  @Min(1)
  @Max(MAX_YEARS)
  expiryInYears?: number;

  @ApiPropertyOptional({ example: false, default: false, description: 'Sign for the testnet instead of mainnet' })
  @ValidateIf(isGiven)
  @IsBoolean()
  isTestnet?: boolean;

  @ApiPropertyOptional({
    example: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    type: String,
    description: 'Owner of the minted subname when not the minter (an address string)',
  })
  @ValidateIf(isGiven)
  @IsEvmAddress()
  owner?: string;
}

export class MintContentResponse {
  @ApiProperty({ example: 'alice', description: 'The normalised label' }) label: string;
  @ApiProperty({ example: '0x437e3b9bab563acfa6e713f2c6dab6d78deb7bbfd2e9037da34e8d4e5f6e09dd' }) parentNode: string;
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }) owner: string;
  @ApiProperty({ example: '5000000000000000', description: 'Wei, decimal string' }) price: string;
  @ApiProperty({ example: '1000000000000000', description: 'Wei, decimal string' }) fee: string;
  @ApiProperty({ example: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' }) paymentReceiver: string;
  @ApiProperty({ example: 4294967295, description: 'Unix seconds; 4294967295 when the name does not expire' })
  expiry: number;
  @ApiProperty({ example: 1795500600, description: 'Unix seconds after which the contract refuses the signature' })
  signatureExpiry: number;
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }) verifiedMinter: string;
  @ApiProperty({ example: 65536 }) fuses: number;
}

export class MintParametersResponse {
  @ApiProperty({ type: MintContentResponse }) content: MintContentResponse;
  @ApiProperty({
    example: '0x' + 'ab'.repeat(65),
    description: '65-byte low-s EIP-712 signature over MintContext by the network signer',
  })
  signature: string;
}
