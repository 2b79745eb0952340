import { ApiProperty } from '@nestjs/swagger';

export class PrimaryNameResponse {
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', description: 'EIP-55' })
  address: string;

  @ApiProperty({ example: 'alice.oak.eth', description: 'The chosen name; "" after the choice was cleared' })
  name: string;

  @ApiProperty({
    example: true,
    description: "The name's coin-60 address is `address` now, so wallets show it (the gateway answers it)",
  })
  verified: boolean;
}

export function toPrimaryNameResponse(address: string, name: string | null, verified: boolean): PrimaryNameResponse {
  return { address, name: name ?? '', verified };
}
