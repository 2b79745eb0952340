import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../audit/audit.types';
import { AdminAuth, CurrentActor } from '../auth/decorators';
import { ApiProblems } from '../common/http/openapi';
import { ListingParams, ListingResponse, PutListingDto } from './dto/listing.dto';
import { ListingsService } from './listings.service';

@ApiTags('admin')
@AdminAuth()
@Controller('admin/listings')
export class AdminListingsController {
  constructor(private readonly listings: ListingsService) {}

  @Put(':network/:parentName')
  @ApiOperation({ summary: 'Create or replace the listing of a parent name on a network' })
  @ApiOkResponse({ type: ListingResponse })
  @ApiProblems([400, 'Invalid network, parent name or body: every bad field is listed in errors[]'])
  put(@Param() p: ListingParams, @Body() dto: PutListingDto, @CurrentActor() by: Actor): Promise<ListingResponse> {
    return this.listings.put(p.network, p.parentName, dto, by);
  }

  @Get()
  @ApiOperation({ summary: 'List every listing (by network, then parent name)' })
  @ApiOkResponse({ type: [ListingResponse] })
  list(): Promise<ListingResponse[]> {
    return this.listings.list();
  }

  @Get(':network/:parentName')
  @ApiOperation({ summary: 'Read one listing' })
  @ApiOkResponse({ type: ListingResponse })
  @ApiProblems([400, 'Invalid network or parent name'])
  find(@Param() p: ListingParams): Promise<ListingResponse> {
    return this.listings.findOrFail(p.network, p.parentName);
  }

  @Delete(':network/:parentName')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a listing; mints under it are refused from then on' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblems([400, 'Invalid network or parent name'])
  remove(@Param() p: ListingParams, @CurrentActor() by: Actor): Promise<void> {
    return this.listings.remove(p.network, p.parentName, by);
  }
}
