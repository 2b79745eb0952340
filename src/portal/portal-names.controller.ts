import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CreateSubnameDto } from '../subnames/dto/create-subname.dto';
import type { Response } from 'express';
import { ReadDeferredBody } from '../common/http/deferred-body';
import { ApiProblems } from '../common/http/openapi';
import { streamNdjson } from '../common/http/ndjson';
import { ResolutionStatusResponse } from '../resolution/dto/resolution-status.dto';
import { SubnamePageResponse } from '../subnames/dto/subname-page.response';
import {
  MeResponse,
  NameControlResponse,
  NameDto,
  PortalExportQueryDto,
  PortalSubnamesQueryDto,
} from './dto/names.dto';
import { CurrentWallet, RequestId, WalletAuth } from './portal-auth';
import { PortalNamesService } from './portal-names.service';
import type { WalletSession } from './portal-session.service';

const CHAIN = [503, 'CHAIN_UNAVAILABLE: no ENS_RPC_URL configured, or the chain could not be read'] as [number, string];
const CONTROL = [
  403,
  'NOT_NAME_CONTROLLER: the wallet does not control the name on chain (the detail says who does)',
] as [number, string];

@ApiTags('portal')
@UseInterceptors(ReadDeferredBody)
@WalletAuth()
@Controller('portal/api')
export class PortalNamesController {
  constructor(private readonly names: PortalNamesService) {}

  @Get('me')
  @ApiOperation({ summary: 'The signed-in wallet, its CSRF token, whether it is an operator, and its names' })
  @ApiOkResponse({ type: MeResponse })
  @ApiProblems()
  me(@CurrentWallet() wallet: WalletSession): Promise<MeResponse> {
    return this.names.me(wallet);
  }

  @Post('names')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Add a name after checking on chain, now, that the wallet controls it',
    description:
      'Roles, the first that holds: manager (registry owner), wrapped-owner (Name Wrapper owner), registrant ' +
      '(a .eth second-level name, until expiry plus 90 days), operator (approved by the owner).',
  })
  @ApiOkResponse({ type: NameControlResponse })
  @ApiProblems([400, 'Invalid name'], CONTROL, CHAIN)
  add(@CurrentWallet() wallet: WalletSession, @Body() dto: NameDto, @RequestId() requestId: string) {
    return this.names.add(wallet, dto.name, requestId);
  }

  @Get('subnames')
  @ApiOperation({ summary: 'The subnames under a parent the wallet controls (the search of GET /api/v1/subnames)' })
  @ApiOkResponse({ type: SubnamePageResponse })
  @ApiProblems([400, 'A bad filter or page'], CONTROL, CHAIN)
  subnames(
    @CurrentWallet() wallet: WalletSession,
    @Query() query: PortalSubnamesQueryDto,
  ): Promise<SubnamePageResponse> {
    return this.names.subnamesOf(wallet, query);
  }

  @Get('export')
  @ApiOperation({ summary: 'The NDJSON export of a parent the wallet controls, without a key' })
  @ApiExtraModels(CreateSubnameDto)
  @ApiOkResponse({
    description: 'application/x-ndjson: one POST /api/v1/subnames body per line',
    content: { 'application/x-ndjson': { schema: { $ref: getSchemaPath(CreateSubnameDto) } } },
  })
  @ApiProblems([400, 'parentName missing or invalid'], CONTROL, CHAIN)
  async export(
    @CurrentWallet() wallet: WalletSession,
    @Query() query: PortalExportQueryDto,
    @Res() res: Response,
  ): Promise<void> {
    await streamNdjson(res, await this.names.exportOf(wallet, query.parentName));
  }

  @Get('names/:name/resolution')
  @ApiOperation({ summary: 'Whether subnames of the name resolve through this service: the five steps, in words' })
  @ApiOkResponse({ type: ResolutionStatusResponse })
  @ApiProblems([400, 'Invalid name'], CHAIN)
  resolution(@Param() { name }: NameDto): Promise<ResolutionStatusResponse> {
    return this.names.resolution(name);
  }
}
