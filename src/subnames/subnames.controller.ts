import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedKey } from '../auth/api-key';
import { ApiKeyAuth, CurrentApiKey } from '../auth/decorators';
import { ApiProblems } from '../common/openapi';
import { CreateSubnameDto } from './dto/create-subname.dto';
import {
  DEFAULT_PAGE_SIZE,
  ListSubnamesQueryDto,
  MAX_PAGE,
  MAX_PAGE_SIZE,
  MAX_PARENT_NAMES,
  MAX_SEARCH_WINDOW,
  SearchSubnamesDto,
} from './dto/search-subnames.dto';
import { SubnamePageResponse } from './dto/subname-page.response';
import { SubnameResponse } from './dto/subname.response';
import { ListQuery, ListQueryValidationPipe } from './list-query';
import { SubnamesService, WriteResult } from './subnames.service';

const SEARCH_PROBLEMS: [number, string][] = [
  [400, 'A bad filter or page: each bad field is named in errors[] (neither parentName nor parentNames names both)'],
  [503, 'SEARCH_TIMEOUT: the search needed more database time than its budget; narrow it, or retry'],
];
const FULL_NAME_PARAM = ApiParam({
  name: 'fullName',
  example: 'alice.oak.eth',
  description: 'Full name of the subname; ENSIP-15 normalised before lookup (Alice.OAK.eth finds alice.oak.eth)',
});

/** Status and quota headers of a successful write. */
function sendWrite(res: Response, result: WriteResult): SubnameResponse {
  res.status(result.created ? 201 : 200);
  res.setHeader('X-Quota-Limit', String(result.quota.limit));
  res.setHeader('X-Quota-Remaining', String(result.quota.remaining));
  return result.subname;
}

@ApiTags('subnames')
@Controller('subnames')
export class SubnamesController {
  constructor(private readonly subnames: SubnamesService) {}

  @Post()
  @ApiKeyAuth()
  @ApiOperation({ summary: 'Create or update a subname (keyed by its full name)' })
  @ApiCreatedResponse({ type: SubnameResponse, description: 'Created; one unit of quota used' })
  @ApiOkResponse({ type: SubnameResponse, description: 'Updated; given fields replaced, left-out fields kept' })
  @ApiProblems(
    [400, 'Invalid body: every bad field is listed in errors[]'],
    [403, 'FORBIDDEN_PARENT outside the key scope, or QUOTA_EXCEEDED'],
    [413, 'Body over 64 KB'],
  )
  async upsert(
    @CurrentApiKey() key: AuthenticatedKey,
    @Body() dto: CreateSubnameDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SubnameResponse> {
    return sendWrite(res, await this.subnames.upsert(key, dto));
  }

  // Declared before the :fullName routes, so that nothing can shadow it.
  @Post('search')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Search subnames (no key needed)',
    description:
      'Filters: parentName and/or parentNames (exact parents; at least one), labelSearch (case-insensitive ' +
      'substring of the label, % and _ literal), owner (any letter case), metadata (every given key must hold ' +
      'exactly that value). Ordered by creation time, then id, so pages neither repeat nor skip an item.',
  })
  @ApiOkResponse({ type: SubnamePageResponse, description: 'One page of the matching subnames and their total' })
  @ApiProblems(...SEARCH_PROBLEMS)
  search(@Body() dto: SearchSubnamesDto): Promise<SubnamePageResponse> {
    return this.subnames.search(dto);
  }

  @Get()
  @ApiOperation({
    summary: 'List subnames (no key needed): the search, with its filters as query parameters',
    description:
      'The same filters, order and answer as POST /subnames/search. parentNames: comma-separated or repeated. ' +
      'metadata: metadata[key]=value per key (deepObject), or metadata=<JSON object>.',
  })
  // Swagger lists these bottom-up: size is declared first so that parentName comes first.
  @ApiQuery({
    name: 'size',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
  })
  @ApiQuery({
    name: 'page',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 },
    description: `page × size must not exceed ${MAX_SEARCH_WINDOW}`,
  })
  @ApiQuery({
    name: 'metadata',
    required: false,
    style: 'deepObject',
    explode: true,
    schema: { type: 'object', additionalProperties: { type: 'string' }, example: { tier: 'gold' } },
    description: 'metadata[tier]=gold (one parameter per key), or metadata={"tier":"gold"}',
  })
  @ApiQuery({
    name: 'owner',
    required: false,
    schema: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
    example: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
    description: 'Owner address in any letter case',
  })
  @ApiQuery({
    name: 'labelSearch',
    required: false,
    type: String,
    example: 'ali',
    description:
      'Case-insensitive substring of the label; % and _ are literal. With several parents: 3 ASCII letters or digits in a row',
  })
  @ApiQuery({
    name: 'parentNames',
    required: false,
    type: String,
    isArray: true,
    style: 'form',
    explode: false,
    example: ['oak.eth', 'pine.eth'],
    description: `Comma-separated (oak.eth,pine.eth) or repeated; up to ${MAX_PARENT_NAMES}`,
  })
  @ApiQuery({
    name: 'parentName',
    required: false,
    type: String,
    example: 'oak.eth',
    description: 'Exact parent name; this or parentNames is required',
  })
  @ApiOkResponse({ type: SubnamePageResponse, description: 'One page of the matching subnames and their total' })
  @ApiProblems(...SEARCH_PROBLEMS)
  list(@ListQuery(new ListQueryValidationPipe()) query: ListSubnamesQueryDto): Promise<SubnamePageResponse> {
    return this.subnames.search(query);
  }

  @Get(':fullName')
  @FULL_NAME_PARAM
  @ApiOperation({ summary: 'Read a subname by full name (normalised before lookup)' })
  @ApiOkResponse({ type: SubnameResponse, description: 'The subname' })
  @ApiProblems([400, 'Not a valid ENS name'], [404, 'SUBNAME_NOT_FOUND'])
  find(@Param('fullName') fullName: string): Promise<SubnameResponse> {
    return this.subnames.findOrFail(fullName);
  }

  @Delete(':fullName')
  @HttpCode(204)
  @ApiKeyAuth()
  @FULL_NAME_PARAM
  @ApiOperation({
    summary: 'Delete a subname',
    description: 'The name can be created again afterwards; that creation uses quota again (deletes give none back).',
  })
  @ApiNoContentResponse({ description: 'Deleted; the name may be created again (which uses quota again)' })
  @ApiProblems(
    [400, 'Not a valid ENS name'],
    [403, 'FORBIDDEN_PARENT: the name lies outside the key scope'],
    [404, 'SUBNAME_NOT_FOUND'],
  )
  remove(@CurrentApiKey() key: AuthenticatedKey, @Param('fullName') fullName: string): Promise<void> {
    return this.subnames.remove(key, fullName);
  }
}
