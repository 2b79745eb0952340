import { ApiProperty } from '@nestjs/swagger';

/** An unsigned transaction for the address to send itself. */
export class PrimaryNameSetupResponse {
  @ApiProperty({ example: '0xa58E81fe9b61B5c3fE2AFD33CF304c454AbFc7Cb', description: 'The ENS reverse registrar' })
  to: string;

  @ApiProperty({
    example:
      '0x0f5a54660000000000000000000000005aaeb6053f3e94c9b9a09f33669435e7ef1beaed0000000000000000000000008fade66b79cc9f707ab26799354482eb93a5b7dd',
    description: 'claimWithResolver(address owner, address resolver) calldata',
  })
  data: string;

  @ApiProperty({ example: 1, description: 'ENS_CHAIN_ID' })
  chainId: number;

  @ApiProperty({
    example:
      'Send this from 0x5aAe…eAed itself. It points 5aaeb6053f3e94c9b9a09f33669435e7ef1beaed.addr.reverse at ' +
      'resolver 0x8FAD…B7dD, so that the name chosen here becomes its primary name. Clients that read ' +
      'addr.reverse first will no longer see its ENSIP-19 default name.',
  })
  note: string;
}
