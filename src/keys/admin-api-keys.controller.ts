import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/openapi';
import { AdminAuth } from '../auth/decorators';
import { IdParams } from '../common/id-params.dto';
import { KeysService } from './keys.service';
import { ApiKeyResponse, CreateApiKeyDto, CreatedApiKeyResponse, UpdateApiKeyDto } from './dto/api-key.dto';

@ApiTags('admin')
@AdminAuth()
@Controller('admin/api-keys')
export class AdminApiKeysController {
  constructor(private readonly keys: KeysService) {}

  @Post()
  @ApiOperation({ summary: 'Issue an API key (the key is shown only in this response)' })
  @ApiCreatedResponse({ type: CreatedApiKeyResponse })
  @ApiProblems([400, 'Invalid body'])
  create(@Body() dto: CreateApiKeyDto): Promise<CreatedApiKeyResponse> {
    return this.keys.issue(dto);
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
  update(@Param() { id }: IdParams, @Body() dto: UpdateApiKeyDto): Promise<ApiKeyResponse> {
    return this.keys.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a key; it is refused from then on' })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiProblems([400, 'Invalid id'])
  revoke(@Param() { id }: IdParams): Promise<void> {
    return this.keys.revoke(id);
  }
}
