import { Body, Controller, Get, Param, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedKey } from '../auth/api-key';
import { ApiKeyAuth, CurrentApiKey } from '../auth/decorators';
import { ApiProblems } from '../common/openapi';
import { CreateSubnameDto } from './dto/create-subname.dto';
import { SubnameResponse } from './dto/subname.response';
import { SubnamesService, WriteResult } from './subnames.service';

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

  @Get(':fullName')
  @ApiOperation({ summary: 'Read a subname by full name (normalised before lookup)' })
  @ApiOkResponse({ type: SubnameResponse })
  @ApiProblems([400, 'Not a valid ENS name'], [404, 'SUBNAME_NOT_FOUND'])
  find(@Param('fullName') fullName: string): Promise<SubnameResponse> {
    return this.subnames.findOrFail(fullName);
  }
}
