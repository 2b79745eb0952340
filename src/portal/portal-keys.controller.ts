import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseInterceptors } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RotateApiKeyDto } from '../admin/dto/api-key.dto';
import { ReadDeferredBody } from '../common/http/deferred-body';
import { ApiProblems } from '../common/http/openapi';
import { IdParams } from '../common/validation/id-params.dto';
import { CreatedPortalKeyResponse, CreatePortalKeyDto, PortalKeyResponse } from './dto/portal-key.dto';
import { CurrentWallet, RequestId, WalletAuth } from './portal-auth';
import { PortalKeysService } from './portal-keys.service';
import type { WalletSession } from './portal-session.service';

@ApiTags('portal')
@UseInterceptors(ReadDeferredBody)
@WalletAuth()
@Controller('portal/api/keys')
export class PortalKeysController {
  constructor(private readonly keys: PortalKeysService) {}

  @Get()
  @ApiOperation({ summary: 'The keys this wallet issued through the portal, with their quota use' })
  @ApiOkResponse({ type: [PortalKeyResponse] })
  @ApiProblems()
  list(@CurrentWallet() wallet: WalletSession): Promise<PortalKeyResponse[]> {
    return this.keys.list(wallet);
  }

  @Post()
  @ApiOperation({
    summary: 'Issue a key for parent names the wallet controls on chain now (the secret is shown only here)',
    description: 'The quota is SUBNAME_QUOTA_DEFAULT; an operator raises it.',
  })
  @ApiCreatedResponse({ type: CreatedPortalKeyResponse })
  @ApiProblems(
    [400, 'Invalid body'],
    [403, 'NOT_NAME_CONTROLLER: a parent the wallet does not control'],
    [409, 'KEY_LIMIT_PER_PARENT or KEY_LIMIT_PER_WALLET: the wallet holds as many live keys as it may'],
    [503, 'CHAIN_UNAVAILABLE: the chain could not be read'],
  )
  issue(@CurrentWallet() wallet: WalletSession, @Body() dto: CreatePortalKeyDto, @RequestId() requestId: string) {
    return this.keys.issue(wallet, dto, requestId);
  }

  @Post(':id/rotate')
  @HttpCode(200)
  @ApiOperation({ summary: 'A new secret for one of this wallet’s keys; the old one works for graceSeconds more' })
  @ApiOkResponse({ type: CreatedPortalKeyResponse })
  @ApiProblems([400, 'Invalid id or graceSeconds'], [404, 'Not a key this wallet issued'], [409, 'The key is revoked'])
  rotate(
    @CurrentWallet() wallet: WalletSession,
    @Param() { id }: IdParams,
    @Body() dto: RotateApiKeyDto,
    @RequestId() requestId: string,
  ): Promise<CreatedPortalKeyResponse> {
    return this.keys.rotate(wallet, id, dto, requestId);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke one of this wallet’s keys' })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiProblems([400, 'Invalid id'], [404, 'Not a key this wallet issued'])
  revoke(@CurrentWallet() wallet: WalletSession, @Param() { id }: IdParams, @RequestId() requestId: string) {
    return this.keys.revoke(wallet, id, requestId);
  }
}
