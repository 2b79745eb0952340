import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/http/openapi';
import { ResolutionStatusQueryDto, ResolutionStatusResponse } from './dto/resolution-status.dto';
import { ResolutionStatusService } from './resolution-status.service';

@ApiTags('resolution')
@Controller('resolution')
export class ResolutionStatusController {
  constructor(private readonly status: ResolutionStatusService) {}

  @Get('status')
  @ApiOperation({
    summary: "Check a parent name's on-chain resolver: registry, wildcard, gateway, signer, answer",
    description:
      'Reads the ENS chain of ENS_RPC_URL: the resolver the registry names for parentName, its ENSIP-10 support, ' +
      "that its OffchainLookup URL is this service's (PUBLIC_URL), that it trusts this service's signer, and that " +
      'a subname of the parent resolves through it with the signature verified by the contract. Each failed step ' +
      'says what to do next.',
  })
  @ApiOkResponse({ type: ResolutionStatusResponse })
  @ApiProblems(
    [400, 'VALIDATION_FAILED: parentName is not an ENS name of at least two labels'],
    [503, 'CHAIN_UNAVAILABLE: ENS_RPC_URL is unset, or the chain could not be read within a few seconds'],
  )
  check(@Query() query: ResolutionStatusQueryDto): Promise<ResolutionStatusResponse> {
    return this.status.check(query.parentName);
  }
}
