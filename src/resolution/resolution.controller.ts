import { Body, Controller, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
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
  '`expires` is aligned to windows of a fifth of the signature lifetime, so equal requests in one window get equal ' +
  'bytes and ETag.';

const header = (description: string, example: string) => ({ description, schema: { type: 'string', example } });
const ETAG = header("The answer's strong ETag, equal for equal answers", '"kX1tq3nUOj0Dbm5T3dN2fZqk9Xh0bM4vQ1w"');
const GET_ANSWER = ApiOkResponse({
  type: CcipReadResponse,
  description: 'The signed answer; 304 without a body when If-None-Match names its ETag',
  headers: {
    'Cache-Control': header(
      'public, max-age = the subname ttl (60 without one), at most half the signature lifetime; s-maxage and ' +
        'stale-if-error = RESOLUTION_CACHE_SECONDS, at most the remaining validity less 60 s',
      'public, max-age=60, s-maxage=30, stale-if-error=30',
    ),
    ETag: ETAG,
    'Surrogate-Key': header('The namehash of every name the answer read, space-separated', '0x5d5727…'),
    'Cache-Tag': header('The same namehashes, comma-separated', '0x5d5727…'),
  },
});
const POST_ANSWER = ApiOkResponse({
  type: CcipReadResponse,
  description: 'The signed answer',
  headers: {
    'Cache-Control': header(
      'public, max-age as for GET (shared caches do not keep POST answers)',
      'public, max-age=60',
    ),
    ETag: ETAG,
  },
});

/** A GET answer: what a shared cache may keep and which names it depends on; 304 for the client's current copy. */
function sendGet(res: Response, answer: GatewayAnswer): CcipReadResponse | undefined {
  const shared = answer.sharedMaxAgeSeconds;
  res.setHeader(
    'Cache-Control',
    `public, max-age=${answer.maxAgeSeconds}, s-maxage=${shared}, stale-if-error=${shared}`,
  );
  res.setHeader('ETag', answer.etag);
  res.setHeader('Surrogate-Key', answer.nodes.join(' '));
  res.setHeader('Cache-Tag', answer.nodes.join(','));
  if (!answer.notModified) return { data: answer.data };
  res.status(304);
  return undefined;
}

function sendPost(res: Response, answer: GatewayAnswer): CcipReadResponse {
  res.setHeader('Cache-Control', `public, max-age=${answer.maxAgeSeconds}`);
  res.setHeader('ETag', answer.etag);
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
  @GET_ANSWER
  @ApiProblems(...RESOLVE_PROBLEMS)
  async get(
    @Param() params: CcipReadParamsDto,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CcipReadResponse | undefined> {
    return sendGet(res, await this.resolution.resolve(params.sender, params.data, ifNoneMatch));
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Resolve through the gateway (EIP-3668 POST)', description: RESOLVE_DESCRIPTION })
  @POST_ANSWER
  @ApiProblems(...RESOLVE_PROBLEMS)
  async post(@Body() body: CcipReadBodyDto, @Res({ passthrough: true }) res: Response): Promise<CcipReadResponse> {
    return sendPost(res, await this.resolution.resolve(body.sender, body.data));
  }
}
