import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res, UseInterceptors } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedKey } from '../auth/api-key';
import type { Actor } from '../audit/audit.types';
import { ApiKeyAuth, CurrentActor, CurrentApiKey } from '../auth/decorators';
import { ReadDeferredBody } from '../common/http/deferred-body';
import { streamNdjson } from '../common/http/ndjson';
import { ApiProblems } from '../common/http/openapi';
import { quotaHeaders } from '../quota/quota.errors';
import { MAX_BATCH_ITEMS } from './dto/batch-limits';
import { BatchResponse, BatchSubnamesDto } from './dto/batch-subnames.dto';
import { CreateSubnameDto } from './dto/create-subname.dto';
import { ExportSubnamesQueryDto, MAX_EXPORT_PARENTS } from './dto/export-subnames.dto';
import { ListSubnamesQueryDto, SearchSubnamesDto } from './dto/search-subnames.dto';
import { SubnameParams } from './dto/subname-params.dto';
import { SubnamePageResponse } from './dto/subname-page.response';
import { SubnameResponse } from './dto/subname.response';
import { PRIMARY_NAME_ENDED_HEADER, primaryNameEndedHeader } from './primary-name-endings';
import { BatchInFlight } from './batch-in-flight';
import { SubnamesBatchService } from './subnames-batch.service';
import { SubnamesService, WriteResult } from './subnames.service';

const SEARCH_PROBLEMS: [number, string][] = [
  [400, 'A bad filter or page: each bad field is named in errors[] (neither parentName nor parentNames names both)'],
  [503, 'SEARCH_TIMEOUT: the search needed more database time than its budget; narrow it, or retry'],
];
/** The key's quota after a successful write (CONTRACT section 3). */
const QUOTA_DOC = {
  'X-Quota-Limit': { description: "The key's creation limit", schema: { type: 'integer', example: 2000 } },
  'X-Quota-Remaining': { description: 'Creations the key has left', schema: { type: 'integer', example: 1998 } },
};

/** The warning a write carries when it moves the coin-60 address of a name some address chose as its primary name. */
const PRIMARY_NAME_ENDED_DOC = {
  [PRIMARY_NAME_ENDED_HEADER]: {
    description:
      'Present only when the write changed the coin-60 address of a name that an address had chosen as its ' +
      'primary name: `<address> <name>` for each such choice, comma-separated, the name percent-encoded as a URI ' +
      'component. The write is applied; wallets stop showing that primary name, and the address can choose again.',
    schema: { type: 'string', example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed alice.oak.eth' },
  },
};

/** Status and quota headers of a successful write. */
function sendWrite(res: Response, result: WriteResult): SubnameResponse {
  res.status(result.created ? 201 : 200);
  res.set({ ...quotaHeaders(result.quota), ...primaryNameEndedHeader(result.ended) });
  return result.subname;
}

@ApiTags('subnames')
@Controller('subnames')
export class SubnamesController {
  constructor(
    private readonly subnames: SubnamesService,
    private readonly batch: SubnamesBatchService,
  ) {}

  @Post()
  @ApiKeyAuth()
  @ApiOperation({ summary: 'Create or update a subname (keyed by its full name)' })
  @ApiCreatedResponse({ type: SubnameResponse, description: 'Created; one unit of quota used', headers: QUOTA_DOC })
  @ApiOkResponse({
    type: SubnameResponse,
    description: 'Updated; given fields replaced, left-out fields kept',
    headers: { ...QUOTA_DOC, ...PRIMARY_NAME_ENDED_DOC },
  })
  @ApiProblems(
    [400, 'Invalid body: every bad field is listed in errors[]'],
    [403, 'FORBIDDEN_PARENT outside the key scope, or QUOTA_EXCEEDED'],
    [413, 'Body over 64 KB'],
  )
  async upsert(
    @CurrentApiKey() key: AuthenticatedKey,
    @Body() dto: CreateSubnameDto,
    @CurrentActor() by: Actor,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SubnameResponse> {
    return sendWrite(res, await this.subnames.upsert(key, dto, by));
  }

  @Post('batch')
  @HttpCode(200)
  @ApiKeyAuth()
  @UseInterceptors(BatchInFlight, ReadDeferredBody)
  @ApiOperation({
    summary: `Create or update up to ${MAX_BATCH_ITEMS} subnames, all or nothing`,
    description:
      'Each item is a POST /subnames body with the same validation and create-or-update semantics; the whole ' +
      'batch is applied in one transaction or not at all. Only the items that create a name use quota; a ' +
      'refused batch writes nothing and uses none. An item that changes nothing keeps its updatedAt. ' +
      'Body limit 2 MB. One batch per key at a time: another sent meanwhile is 429 RATE_LIMITED with Retry-After.',
  })
  @ApiBody({ type: BatchSubnamesDto })
  @ApiOkResponse({
    type: BatchResponse,
    description: 'Applied; one result per item in the order given',
    headers: { ...QUOTA_DOC, ...PRIMARY_NAME_ENDED_DOC },
  })
  @ApiProblems(
    [
      400,
      'Invalid items: every bad field is named by its path (items[3].addresses[0].value); ' +
        'a fullName given twice is named as items[i].label',
    ],
    [
      403,
      'FORBIDDEN_PARENT naming each item outside the key scope in errors[], ' +
        'or QUOTA_EXCEEDED (the creations exceed what the key has left)',
    ],
    [413, 'Body over 2 MB'],
  )
  async upsertMany(
    @CurrentApiKey() key: AuthenticatedKey,
    @Body() dto: BatchSubnamesDto,
    @CurrentActor() by: Actor,
    @Res({ passthrough: true }) res: Response,
  ): Promise<BatchResponse> {
    const result = await this.batch.upsertMany(key, dto, by);
    res.set({ ...quotaHeaders(result.quota), ...primaryNameEndedHeader(result.ended) });
    return result.body;
  }

  // Declared before the :fullName routes, so that nothing can shadow it.
  @Get('export')
  @ApiKeyAuth()
  @ApiExtraModels(CreateSubnameDto)
  @ApiOperation({
    summary: 'Export every subname under one or more parents, at any depth, as NDJSON',
    description:
      'One line per subname in the request shape of POST /subnames, so the file can be imported as it is ' +
      '(npm run cli -- import). Stable order (by reversed full name, so the names under one parent come ' +
      'together); read in pages with a keyset cursor and written as fast as the client takes it. The key must ' +
      `cover every parentName (repeated, up to ${MAX_EXPORT_PARENTS}). Names written during an export may or ` +
      'may not appear in it.',
  })
  @ApiOkResponse({
    description: 'application/x-ndjson: one POST /subnames body per line',
    content: { 'application/x-ndjson': { schema: { $ref: getSchemaPath(CreateSubnameDto) } } },
  })
  @ApiProblems(
    [400, 'parentName missing or not a valid ENS name'],
    [403, 'FORBIDDEN_PARENT naming each parentName outside the key scope in errors[]'],
    [429, 'RATE_LIMITED: the key already runs 2 exports at once (Retry-After)'],
  )
  async export(
    @CurrentApiKey() key: AuthenticatedKey,
    @Query() query: ExportSubnamesQueryDto,
    @Res() res: Response,
  ): Promise<void> {
    await streamNdjson(res, this.subnames.exportLines(key, query));
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
      'metadata: metadata[key]=value per key, or metadata=<JSON object>.',
  })
  @ApiOkResponse({ type: SubnamePageResponse, description: 'One page of the matching subnames and their total' })
  @ApiProblems(...SEARCH_PROBLEMS)
  list(@Query() query: ListSubnamesQueryDto): Promise<SubnamePageResponse> {
    return this.subnames.search(query);
  }

  @Get(':fullName')
  @ApiOperation({ summary: 'Read a subname by full name (normalised before lookup)' })
  @ApiOkResponse({ type: SubnameResponse, description: 'The subname' })
  @ApiProblems([400, 'Not a valid ENS name'], [404, 'SUBNAME_NOT_FOUND'])
  find(@Param() { fullName }: SubnameParams): Promise<SubnameResponse> {
    return this.subnames.findOrFail(fullName);
  }

  @Delete(':fullName')
  @HttpCode(204)
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Delete a subname',
    description: 'The name can be created again afterwards; that creation uses quota again (deletes give none back).',
  })
  @ApiNoContentResponse({
    description: 'Deleted; the name may be created again (which uses quota again)',
    headers: { ...QUOTA_DOC, ...PRIMARY_NAME_ENDED_DOC },
  })
  @ApiProblems(
    [400, 'Not a valid ENS name'],
    [403, 'FORBIDDEN_PARENT: the name lies outside the key scope'],
    [404, 'SUBNAME_NOT_FOUND'],
  )
  async remove(
    @CurrentApiKey() key: AuthenticatedKey,
    @Param() { fullName }: SubnameParams,
    @CurrentActor() by: Actor,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    const { ended, quota } = await this.subnames.remove(key, fullName, by);
    res.set({ ...quotaHeaders(quota), ...primaryNameEndedHeader(ended) });
  }
}
