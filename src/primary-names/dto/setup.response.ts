import { ApiProperty } from '@nestjs/swagger';
import { reverseSetup } from '../reverse-setup';

/** The answer for the documented example address and resolver on mainnet, as the route gives it. */
const EXAMPLE = reverseSetup(
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0x8FADE66B79cC9f707aB26799354482EB93a5B7dD',
  {
    chainId: 1,
    reverseRegistrar: '0xa58E81fe9b61B5c3fE2AFD33CF304c454AbFc7Cb',
  },
);

/** An unsigned transaction for the address to send itself. */
export class PrimaryNameSetupResponse {
  @ApiProperty({ example: EXAMPLE.to, description: 'The ENS reverse registrar (ENS_REVERSE_REGISTRAR_ADDRESS)' })
  to: string;

  @ApiProperty({ example: EXAMPLE.data, description: 'claimWithResolver(address owner, address resolver) calldata' })
  data: string;

  @ApiProperty({ example: EXAMPLE.chainId, description: 'ENS_CHAIN_ID' })
  chainId: number;

  @ApiProperty({ example: EXAMPLE.note, description: 'What the transaction does, in words' })
  note: string;
}
