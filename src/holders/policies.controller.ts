import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedKey } from '../auth/api-key';
import { ApiKeyAuth, CurrentApiKey } from '../auth/decorators';
import { ApiProblems } from '../common/http/openapi';
import { PolicyParams } from './dto/policy-params.dto';
import { PolicyResponse } from './dto/policy.response';
import { PutPolicyDto } from './dto/put-policy.dto';
import { PoliciesService } from './policies.service';

@ApiTags('holders')
@Controller('policies')
export class PoliciesController {
  constructor(private readonly policies: PoliciesService) {}

  @Put(':parentName')
  @ApiKeyAuth()
  @ApiOperation({
    summary: "Set what holders may do under a parent (claims are charged to this key's quota)",
    description: 'Left-out fields take their defaults: claims closed, 1 claim per address, labels 3 to 63.',
  })
  @ApiOkResponse({ type: PolicyResponse, description: 'The policy with its defaults filled in' })
  @ApiProblems(
    [400, 'Invalid body: every bad field is listed in errors[]'],
    [403, "FORBIDDEN_PARENT: the parent lies outside the key's scope"],
  )
  put(
    @CurrentApiKey() key: AuthenticatedKey,
    @Param() { parentName }: PolicyParams,
    @Body() dto: PutPolicyDto,
  ): Promise<PolicyResponse> {
    return this.policies.put(key, parentName, dto);
  }

  @Get(':parentName')
  @ApiOperation({ summary: "A parent's holder policy (no key needed; the allowlist is shown by its size only)" })
  @ApiOkResponse({ type: PolicyResponse })
  @ApiProblems([400, 'Not a valid ENS name'], [404, 'POLICY_NOT_FOUND: none set; holders can do nothing there'])
  find(@Param() { parentName }: PolicyParams): Promise<PolicyResponse> {
    return this.policies.findOrFail(parentName);
  }

  @Delete(':parentName')
  @HttpCode(204)
  @ApiKeyAuth()
  @ApiOperation({ summary: "Remove a parent's holder policy: holders can do nothing there any more" })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiProblems(
    [400, 'Not a valid ENS name'],
    [403, "FORBIDDEN_PARENT: the parent lies outside the key's scope"],
    [404, 'POLICY_NOT_FOUND: none was set'],
  )
  remove(@CurrentApiKey() key: AuthenticatedKey, @Param() { parentName }: PolicyParams): Promise<void> {
    return this.policies.remove(key, parentName);
  }
}
