import { Body, Controller, Get, Param, Put, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReadDeferredBody } from '../common/http/deferred-body';
import { ApiProblems } from '../common/http/openapi';
import { PolicyResponse } from '../holders/dto/policy.response';
import { PutPolicyDto } from '../holders/dto/put-policy.dto';
import { NameDto } from './dto/names.dto';
import { CurrentWallet, RequestId, WalletAuth } from './portal-auth';
import { PortalPoliciesService } from './portal-policies.service';
import type { WalletSession } from './portal-session.service';

const CONTROL: [number, string] = [403, 'NOT_NAME_CONTROLLER: the wallet does not control the name on chain now'];
const CHAIN: [number, string] = [503, 'CHAIN_UNAVAILABLE: the chain could not be read'];

@ApiTags('portal')
@UseInterceptors(ReadDeferredBody)
@WalletAuth()
@Controller('portal/api/names/:name/policy')
export class PortalPoliciesController {
  constructor(private readonly policies: PortalPoliciesService) {}

  @Get()
  @ApiOperation({ summary: 'The holder policy of a name the wallet controls, allowlist included' })
  @ApiOkResponse({ type: PolicyResponse })
  @ApiProblems([400, 'Invalid name'], CONTROL, [404, 'POLICY_NOT_FOUND: none set'], CHAIN)
  find(@CurrentWallet() wallet: WalletSession, @Param() { name }: NameDto): Promise<PolicyResponse> {
    return this.policies.find(wallet, name);
  }

  @Put()
  @ApiOperation({
    summary: 'Set what holders may do under a name the wallet controls (the body of PUT /policies/{parentName})',
    description: "Claims are charged to the quota of the wallet's newest live key covering the name.",
  })
  @ApiOkResponse({ type: PolicyResponse })
  @ApiProblems(
    [400, 'Invalid body: every bad field is listed in errors[]'],
    [403, 'NOT_NAME_CONTROLLER; or FORBIDDEN_PARENT: no live key of this wallet covers the name'],
    CHAIN,
  )
  put(
    @CurrentWallet() wallet: WalletSession,
    @Param() { name }: NameDto,
    @Body() dto: PutPolicyDto,
    @RequestId() requestId: string,
  ): Promise<PolicyResponse> {
    return this.policies.put(wallet, name, dto, requestId);
  }
}
