import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedKey } from '../auth/api-key';
import { ApiKeyAuth, CurrentApiKey } from '../auth/decorators';
import { ApiProblems } from '../common/http/openapi';
import { QuotaResponse } from './quota.dto';
import { QuotaService } from './quota.service';

@ApiTags('subnames')
@Controller('quota')
export class QuotaController {
  constructor(private readonly quota: QuotaService) {}

  @Get()
  @ApiKeyAuth()
  @ApiOperation({ summary: "The calling key's creation quota" })
  @ApiOkResponse({ type: QuotaResponse })
  @ApiProblems()
  get(@CurrentApiKey() key: AuthenticatedKey): Promise<QuotaResponse> {
    return this.quota.current(key.id);
  }
}
