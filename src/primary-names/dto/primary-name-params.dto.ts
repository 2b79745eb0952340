import { ApiProperty } from '@nestjs/swagger';
import { IsEvmAddress } from '../../common/validation/validators';

export class PrimaryNameParams {
  @ApiProperty({
    example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    pattern: '^0x[0-9a-fA-F]{40}$',
    description: 'Lower case or EIP-55 mixed case',
  })
  @IsEvmAddress()
  address: string;
}
