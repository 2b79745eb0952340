import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/http/openapi';
import { SdkListingParams, SdkListingResponse } from './dto/listing.dto';
import { ListingsService } from './listings.service';

/** The listing lookup that the public mint SDK (@thenamespace/mint-manager) makes before it asks to mint. */
@ApiTags('mint')
@Controller('listing')
export class SdkListingsController {
  constructor(private readonly listings: ListingsService) {}

  @Get('network/:network/name/:name')
  @ApiOperation({ summary: 'Whether a parent name has an active listing (MAINNET = mainnet, SEPOLIA = testnet)' })
  @ApiOkResponse({ type: SdkListingResponse })
  @ApiProblems([400, 'Invalid network or name'], [404, 'LISTING_NOT_FOUND'])
  find(@Param() p: SdkListingParams): Promise<SdkListingResponse> {
    return this.listings.findForSdk(p.network, p.name);
  }
}
