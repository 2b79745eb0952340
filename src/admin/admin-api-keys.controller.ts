import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/http/openapi';
import type { Actor } from '../audit/audit.types';
import { AdminAuth, CurrentActor } from '../auth/decorators';
import { IdParams } from '../common/validation/id-params.dto';
import { KeysService } from './keys.service';
import {
  ApiKeyResponse,
  CreateApiKeyDto,
  CreatedApiKeyResponse,
  RotateApiKeyDto,
  UpdateApiKeyDto,
} from './dto/api-key.dto';

@ApiTags('admin')
@AdminAuth()
@Controller('admin/api-keys')
export class AdminApiKeysController {
  constructor(private readonly keys: KeysService) {}

  @Post()
  @ApiOperation({ summary: 'Issue an API key (the key is shown only in this response)' })
  @ApiCreatedResponse({ type: CreatedApiKeyResponse })
  @ApiProblems([400, 'Invalid body'])
  create(@Body() dto: CreateApiKeyDto, @CurrentActor() by: Actor): Promise<CreatedApiKeyResponse> {
    return this.keys.issue(dto, by);
  }

  @Get()
  @ApiOperation({ summary: 'List API keys with their quota use' })
  @ApiOkResponse({ type: [ApiKeyResponse] })
  @ApiProblems()
  list(): Promise<ApiKeyResponse[]> {
    return this.keys.list();
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change a key: name, parent names, quota, expiry' })
  @ApiOkResponse({ type: ApiKeyResponse })
  @ApiProblems([400, 'Invalid body or id'])
  update(@Param() { id }: IdParams, @Body() dto: UpdateApiKeyDto, @CurrentActor() by: Actor): Promise<ApiKeyResponse> {
    return this.keys.update(id, dto, by);
  }

  @Post(':id/rotate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Give a key a new secret (shown only in this response); the old one works for graceSeconds more',
    description:
      'Id, scope, limit and used count are kept. The old secret is accepted for graceSeconds (0 to 86400, ' +
      'default 0: refused at once), then never again; rotating again replaces it. A revoked key cannot be rotated.',
  })
  @ApiOkResponse({ type: CreatedApiKeyResponse })
  @ApiProblems([400, 'Invalid id or graceSeconds'], [409, 'CONFLICT: the key is revoked'])
  rotate(
    @Param() { id }: IdParams,
    @Body() dto: RotateApiKeyDto,
    @CurrentActor() by: Actor,
  ): Promise<CreatedApiKeyResponse> {
    return this.keys.rotate(id, dto, by);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a key; it is refused from then on' })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiProblems([400, 'Invalid id'])
  revoke(@Param() { id }: IdParams, @CurrentActor() by: Actor): Promise<void> {
    return this.keys.revoke(id, by);
  }
}
