import { ApiProperty } from '@nestjs/swagger';
import { IsEvmAddress } from '../../common/validation/validators';

export class PrimaryNameSetupQuery {
  @ApiProperty({
    example: '0x8FADE66B79cC9f707aB26799354482EB93a5B7dD',
    description: "The resolver the address's reverse node is to use: the parent's offchain resolver that points here",
  })
  @IsEvmAddress()
  resolver: string;
}
