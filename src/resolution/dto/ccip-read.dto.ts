import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';

const SENDER = /^0x[0-9a-fA-F]{40}$/;
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})+$/;
const SENDER_MESSAGE = 'must be a 0x-prefixed 20-byte address (any letter case)';
const DATA_MESSAGE = 'must be 0x-prefixed hex bytes';

/** A resolve(bytes,bytes) call for `addr(bytes32)` of alice.oak.eth (what ethers sends for resolveName). */
export const EXAMPLE_DATA =
  '0x9061b92300000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000080000000000000000000000000000000000000000000000000000000000000000f05616c696365036f616b0365746800000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000243b3b57decdf7581bf874b959e7c4d1988cda7ec94c543a2232b18c18114f4b7ed87baa6800000000000000000000000000000000000000000000000000000000';
/** The answer to EXAMPLE_DATA for EXAMPLE_SENDER by the signer of private key 1, expires 1795500900. */
export const EXAMPLE_ANSWER =
  '0x0000000000000000000000000000000000000000000000000000000000000060000000000000000000000000000000000000000000000000000000006b052b6400000000000000000000000000000000000000000000000000000000000000a000000000000000000000000000000000000000000000000000000000000000200000000000000000000000005aaeb6053f3e94c9b9a09f33669435e7ef1beaed00000000000000000000000000000000000000000000000000000000000000411812a86c236e9c3a2ae0ce5b00b09081feacd3cf040def9d07735ae4ebc2edcd0345f2988cd4dabfe9289dfda02cb95dface3e1e2213a79239545482a9a0a3d11c00000000000000000000000000000000000000000000000000000000000000';
export const EXAMPLE_SENDER = '0x8464135c8f25da09e49bc8782676a84730c318bc';

class CcipReadRequest {
  @ApiProperty({
    example: EXAMPLE_SENDER,
    pattern: SENDER.source,
    description:
      'The offchain resolver contract that will verify the answer (the OffchainLookup sender), any letter case',
  })
  @IsString()
  @Matches(SENDER, { message: SENDER_MESSAGE })
  sender: string;

  @ApiProperty({
    example: EXAMPLE_DATA,
    pattern: HEX_BYTES.source,
    description: 'The OffchainLookup callData: resolve(bytes name, bytes data) (selector 0x9061b923), 0x-hex',
  })
  @IsString()
  @Matches(HEX_BYTES, { message: DATA_MESSAGE })
  data: string;
}

/** POST /ccip-read body, as EIP-3668 clients send it when the URL template has no {data}. */
export class CcipReadBodyDto extends CcipReadRequest {}

/** GET /ccip-read/{sender}/{data}.json path parameters. */
export class CcipReadParamsDto extends CcipReadRequest {}

export class CcipReadResponse {
  @ApiProperty({
    example: EXAMPLE_ANSWER,
    description:
      'abi.encode(bytes result, uint64 expires, bytes signature): result is the ABI-encoded return value of the inner ' +
      'call; signature is r ‖ s ‖ v (65 bytes, low s) over keccak256(0x1900 ‖ sender ‖ expires ‖ keccak256(request) ‖ ' +
      'keccak256(result)), signed without an EIP-191 prefix',
  })
  data: string;
}

export class CcipSignerResponse {
  @ApiProperty({
    example: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf',
    description: 'The gateway signer: the address the offchain resolver must list as a signer',
  })
  address: string;

  @ApiProperty({ example: 300, description: 'Seconds an answer stays valid (its expires is now + this)' })
  signatureTtlSeconds: number;

  @ApiProperty({
    example: 'https://subnames.example.com/api/v1/ccip-read/{sender}/{data}.json',
    type: String,
    nullable: true,
    description:
      "The URL to give the resolver contract, built on PUBLIC_URL (never on a request's Host); null in production " +
      'while PUBLIC_URL is unset',
  })
  urlTemplate: string | null;
}
