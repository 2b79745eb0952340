import { Body, Controller, Get, Param, Patch, Query, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuditPageResponse } from '../audit/dto/audit-event.response';
import { AuditQueryDto } from '../audit/dto/audit-query.dto';
import { ReadDeferredBody } from '../common/http/deferred-body';
import { ApiProblems } from '../common/http/openapi';
import { IdParams } from '../common/validation/id-params.dto';
import { AdminKeyPageResponse, AdminKeysQueryDto, PortalKeyResponse, SetQuotaDto } from './dto/portal-key.dto';
import { CurrentWallet, OperatorAuth, RequestId } from './portal-auth';
import { PortalAdminService } from './portal-admin.service';
import type { WalletSession } from './portal-session.service';

@ApiTags('portal')
@UseInterceptors(ReadDeferredBody)
@OperatorAuth()
@Controller('portal/api/admin')
export class PortalAdminController {
  constructor(private readonly admin: PortalAdminService) {}

  @Get('keys')
  @ApiOperation({ summary: 'Every API key, with its quota use (operators)' })
  @ApiOkResponse({ type: AdminKeyPageResponse })
  @ApiProblems([400, 'A bad page or size'])
  keys(@Query() query: AdminKeysQueryDto): Promise<AdminKeyPageResponse> {
    return this.admin.keysPage(query);
  }

  @Patch('keys/:id')
  @ApiOperation({ summary: "Change a key's quota (operators)" })
  @ApiOkResponse({ type: PortalKeyResponse })
  @ApiProblems([400, 'Invalid id or quota'], [404, 'No such key'])
  setQuota(
    @CurrentWallet() wallet: WalletSession,
    @Param() { id }: IdParams,
    @Body() dto: SetQuotaDto,
    @RequestId() requestId: string,
  ): Promise<PortalKeyResponse> {
    return this.admin.setQuota(wallet, id, dto.quota, requestId);
  }

  @Get('audit')
  @ApiOperation({ summary: 'The audit trail, newest first, with the filters of GET /api/v1/admin/audit (operators)' })
  @ApiOkResponse({ type: AuditPageResponse })
  @ApiProblems([400, 'A bad filter or page'])
  audit(@Query() query: AuditQueryDto): Promise<AuditPageResponse> {
    return this.admin.auditPage(query);
  }
}
