import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuditService } from '../audit/audit.service';
import { AuditQueryDto } from '../audit/dto/audit-query.dto';
import { AuditPageResponse } from '../audit/dto/audit-event.response';
import { AdminAuth } from '../auth/decorators';
import { ApiProblems } from '../common/http/openapi';

/** The audit trail's read route; here rather than in audit/ because the admin guard lives in auth, above it. */
@ApiTags('admin')
@AdminAuth()
@Controller('admin/audit')
export class AdminAuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({
    summary: 'Read the audit trail, newest first',
    description:
      'Who changed what: key issue, update, rotation and revocation; listing put and delete; subname create, ' +
      'update and delete. Filters: since (time lower bound), actor (admin or a key id), name (the subject ' +
      'exactly: a key id, network/parentName, or a full name). page × size at most 10,000.',
  })
  @ApiOkResponse({ type: AuditPageResponse })
  @ApiProblems([400, 'A bad filter or page: each bad field is named in errors[]'])
  list(@Query() query: AuditQueryDto): Promise<AuditPageResponse> {
    return this.audit.search(query);
  }
}
