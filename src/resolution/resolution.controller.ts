import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ResolutionBudget } from '../common/http/no-rate-limit.decorator';
import { ApiProblems } from '../common/http/openapi';
import {
  CcipReadBodyDto,
  CcipReadParamsDto,
  CcipReadResponse,
  CcipSignerResponse,
  EXAMPLE_DATA,
  EXAMPLE_SENDER,
} from './dto/ccip-read.dto';
import { MAX_ANSWER_BYTES } from './record-answers';
import { MAX_MULTICALL_CALLS } from './request-decoding';
import { CCIP_READ_PATH, GatewayAnswer, ResolutionService } from './resolution.service';

const RESOLVE_PROBLEMS: [number, string][] = [
  [
    400,
    'VALIDATION_FAILED naming the field (sender, data, data.name, data.call, data.node, data.calls[i]…), ' +
      `data.call also for a multicall of more than ${MAX_MULTICALL_CALLS} calls or one whose answer would pass ` +
      `${MAX_ANSWER_BYTES} bytes; or UNSUPPORTED_RESOLVER_CALL for an inner function other than addr, text, ` +
      'contenthash and multicall',
  ],
];
const RESOLVE_DESCRIPTION =
  'Answers what an offchain resolver asked in its OffchainLookup (EIP-3668): the inner call of resolve(name, data) ' +
  '(addr(bytes32), addr(bytes32,uint256), text(bytes32,string), contenthash(bytes32), multicall(bytes[])) from the ' +
  'stored records, signed for the resolver `sender`. A name that is not stored gets empty values, signed. ' +
  `A multicall holds at most ${MAX_MULTICALL_CALLS} calls and its answer at most ${MAX_ANSWER_BYTES} bytes. ` +
  'Cache-Control: public, max-age = the subname ttl (60 without one), at most half the signature lifetime.';

const SIGNED_ANSWER = ApiOkResponse({
  type: CcipReadResponse,
  description: 'The signed answer',
  headers: {
    'Cache-Control': {
      description: 'public, max-age = the subname ttl (60 without one), at most half the signature lifetime',
      schema: { type: 'string', example: 'public, max-age=120' },
    },
  },
});

function send(res: Response, answer: GatewayAnswer): CcipReadResponse {
  res.setHeader('Cache-Control', `public, max-age=${answer.maxAgeSeconds}`);
  return { data: answer.data };
}

/** The CCIP-Read gateway: public, no key, on its own budget per client address (trusted sources unlimited). */
@ApiTags('resolution')
@ResolutionBudget()
@Controller(CCIP_READ_PATH)
export class ResolutionController {
  constructor(private readonly resolution: ResolutionService) {}

  // Declared before the two-segment routes, for readers; the paths cannot collide.
  @Get('signer')
  @ApiOperation({ summary: 'The gateway signer address, signature lifetime and URL template for the resolver' })
  @ApiOkResponse({ type: CcipSignerResponse })
  @ApiProblems()
  signer(): CcipSignerResponse {
    return this.resolution.signer();
  }

  @Get([':sender/:data.json', ':sender/:data'])
  @ApiOperation({
    summary: 'Resolve through the gateway (EIP-3668 GET; also without .json)',
    description: RESOLVE_DESCRIPTION,
  })
  @ApiParam({ name: 'sender', example: EXAMPLE_SENDER, description: 'The resolver contract (OffchainLookup sender)' })
  @ApiParam({ name: 'data', example: EXAMPLE_DATA, description: 'The OffchainLookup callData, 0x-hex' })
  @SIGNED_ANSWER
  @ApiProblems(...RESOLVE_PROBLEMS)
  async get(@Param() params: CcipReadParamsDto, @Res({ passthrough: true }) res: Response): Promise<CcipReadResponse> {
    return send(res, await this.resolution.resolve(params.sender, params.data));
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Resolve through the gateway (EIP-3668 POST)', description: RESOLVE_DESCRIPTION })
  @SIGNED_ANSWER
  @ApiProblems(...RESOLVE_PROBLEMS)
  async post(@Body() body: CcipReadBodyDto, @Res({ passthrough: true }) res: Response): Promise<CcipReadResponse> {
    return send(res, await this.resolution.resolve(body.sender, body.data));
  }
}
