import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/http/openapi';
import { RequestId } from '../common/http/request-id';
import { PrimaryNameParams } from './dto/primary-name-params.dto';
import { PrimaryNameResponse } from './dto/primary-name.response';
import { SetPrimaryNameDto } from './dto/set-primary-name.dto';
import { PrimaryNameSetupQuery } from './dto/setup-query.dto';
import { PrimaryNameSetupResponse } from './dto/setup.response';
import { PrimaryNamesService } from './primary-names.service';

const SIGNED_EXAMPLES = {
  choose: {
    summary: 'Choose alice.oak.eth',
    value: {
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      name: 'alice.oak.eth',
      issuedAt: 1795800000,
      signature: `0x${'ab'.repeat(65)}`,
    },
  },
  clear: {
    summary: 'Clear the choice (an empty name, signed the same way)',
    value: {
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      name: '',
      issuedAt: 1795800060,
      signature: `0x${'cd'.repeat(65)}`,
    },
  },
};

@ApiTags('primary-names')
@Controller('primary-names')
export class PrimaryNamesController {
  constructor(private readonly primaryNames: PrimaryNamesService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: "Choose (or clear) an address's primary name with the address's signature, no transaction",
    description:
      'The address signs EIP-712 PrimaryName(address addr,string name,uint256 issuedAt,string service) with the ' +
      'domain {name: "ENS subname service", version: "1", chainId: ENS_CHAIN_ID}; service is the origin of ' +
      'PUBLIC_URL. Contract accounts sign by ERC-1271 (or ERC-6492 before deployment), checked through ENS_RPC_URL ' +
      "(503 CHAIN_UNAVAILABLE when it cannot be read). Wallets show the name once the address's reverse node uses " +
      'the offchain resolver (GET /primary-names/{address}/setup), and only while the name resolves to the address.',
  })
  @ApiBody({ type: SetPrimaryNameDto, examples: SIGNED_EXAMPLES })
  @ApiOkResponse({ type: PrimaryNameResponse, description: 'Stored; the gateway answers it within a second' })
  @ApiProblems(
    [400, 'Invalid body: every bad field is listed in errors[] (a name not in ENSIP-15 normalised form included)'],
    [401, "UNAUTHORIZED: the signature is not the address holder's signature of this message"],
    [404, 'SUBNAME_NOT_FOUND: the name is not stored here'],
    [
      409,
      "FORWARD_MISMATCH: the name's coin-60 address is not the address; STALE_SIGNATURE: issuedAt more than " +
        '10 minutes old, more than 60 s ahead, or not later than the last one accepted for the address (replay)',
    ],
  )
  choose(@Body() dto: SetPrimaryNameDto, @RequestId() requestId: string): Promise<PrimaryNameResponse> {
    return this.primaryNames.choose(dto, requestId);
  }

  @Get(':address')
  @ApiOperation({ summary: 'The primary name an address chose here, and whether it still resolves to the address' })
  @ApiOkResponse({ type: PrimaryNameResponse })
  @ApiProblems([400, 'Not an address'], [404, 'NOT_FOUND: no primary name chosen (or the choice was cleared)'])
  find(@Param() { address }: PrimaryNameParams): Promise<PrimaryNameResponse> {
    return this.primaryNames.findOrFail(address);
  }

  @Get(':address/setup')
  @ApiOperation({
    summary: 'The one transaction the address sends first: claimWithResolver on the ENS reverse registrar',
    description:
      "It points the address's reverse node (<address>.addr.reverse) at the given resolver. Clients that read " +
      "addr.reverse first then no longer see the address's ENSIP-19 default name. Also: npm run cli -- " +
      'primary-name prepare ADDRESS --resolver ADDRESS.',
  })
  @ApiOkResponse({ type: PrimaryNameSetupResponse, description: 'Unsigned: {to, data, chainId, note}' })
  @ApiProblems([400, 'address or resolver missing or not an address'])
  setup(
    @Param() { address }: PrimaryNameParams,
    @Query() { resolver }: PrimaryNameSetupQuery,
  ): PrimaryNameSetupResponse {
    return this.primaryNames.setup(address, resolver);
  }
}
