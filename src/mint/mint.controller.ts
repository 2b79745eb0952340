import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/http/openapi';
import { EstimateQueryDto, EstimateResponse } from './dto/estimate.dto';
import { MintParametersResponse, MintRequestDto } from './dto/mint.dto';
import { SignerQueryDto, SignerResponse } from './dto/signer.dto';
import { MintService } from './mint.service';

/** The mint interface: public, no key. The SDK's paths (/minting-parameters…) are served by the same handlers. */
@ApiTags('mint')
@Controller()
export class MintController {
  constructor(private readonly mint: MintService) {}

  @Post(['mint', 'minting-parameters'])
  @HttpCode(200)
  @ApiOperation({ summary: 'Signed EIP-712 mint parameters for the Namespace mint contract' })
  @ApiOkResponse({ type: MintParametersResponse })
  @ApiProblems(
    [400, 'Invalid body: every bad field is listed in errors[]'],
    [404, 'LISTING_NOT_FOUND: no active listing of the parent on that network'],
    [409, 'SUBNAME_RESERVED by the listing, or SUBNAME_TAKEN by an offchain subname'],
  )
  mintParameters(@Body() dto: MintRequestDto): Promise<MintParametersResponse> {
    return this.mint.mintParameters(dto);
  }

  @Get(['mint/estimate', 'minting-parameters/estimated'])
  @ApiOperation({ summary: 'Price, fee and whether the label can be minted, without signing' })
  @ApiOkResponse({ type: EstimateResponse })
  @ApiProblems([400, 'Invalid query: every bad parameter is listed in errors[]'])
  estimate(@Query() query: EstimateQueryDto): Promise<EstimateResponse> {
    return this.mint.estimate(query);
  }

  @Get('mint/signer')
  @ApiOperation({ summary: 'The signer address and the EIP-712 domain and types of a network' })
  @ApiOkResponse({ type: SignerResponse })
  @ApiProblems([400, 'isTestnet is not true or false'])
  signer(@Query() query: SignerQueryDto): SignerResponse {
    return this.mint.signerInfo(query.isTestnet);
  }
}
