import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import { IsEvmAddress } from '../../common/validation/validators';

export class ChallengeDto {
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', description: 'The wallet that will sign' })
  @IsEvmAddress()
  address: string;
}

export class ChallengeResponse {
  @ApiProperty({
    description:
      'The whole EIP-4361 message to sign with personal_sign, exactly as given: domain and URI from PUBLIC_URL, ' +
      'chain id ENS_CHAIN_ID, a random nonce, expiring within 5 minutes (24 hours for a contract account)',
  })
  message: string;
}

export class SignInDto {
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })
  @IsEvmAddress()
  address: string;

  @ApiProperty({ description: 'The message of POST /portal/api/session/challenge, unchanged' })
  @IsString()
  @Length(1, 4000)
  message: string;

  @ApiProperty({
    example: '0x…',
    description: "The wallet's personal_sign of the message; a contract account's ERC-1271 or ERC-6492 signature",
  })
  @IsString()
  @Matches(/^0x(?:[0-9a-fA-F]{2}){1,10000}$/, { message: 'must be a 0x-prefixed hex signature' })
  signature: string;
}
