import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ListingResponse, PutListingDto, SdkListingResponse, SDK_NETWORKS, toListingResponse } from './dto/listing.dto';
import { ListingEntity } from './listing.entity';
import { ListingsRepository } from './listings.repository';
import type { Network } from '../signing/mint-context';
import { ListingNotFoundError } from './mint.errors';

/** Listings: what a parent name sells its subnames for, per network; administered, read by the mint. */
@Injectable()
export class ListingsService {
  constructor(
    private readonly listings: ListingsRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** PUT: creates or replaces the whole listing. Names, labels and the receiver come canonical from the pipe. */
  async put(network: Network, parentName: string, dto: PutListingDto): Promise<ListingResponse> {
    const entity = await this.listings.upsert(this.dataSource.manager, {
      network,
      parentName,
      price: dto.price,
      lengthPrices: dto.lengthPrices ?? {},
      fee: dto.fee,
      paymentReceiver: dto.paymentReceiver,
      expirable: dto.expirable,
      fuses: dto.fuses,
      reservedLabels: dto.reservedLabels ?? [],
      active: dto.active ?? true,
    });
    return toListingResponse(entity);
  }

  async findOrFail(network: Network, parentName: string): Promise<ListingResponse> {
    const entity = await this.listings.findOne(this.dataSource.manager, network, parentName);
    if (!entity) throw new ListingNotFoundError(network, parentName);
    return toListingResponse(entity);
  }

  async list(): Promise<ListingResponse[]> {
    return (await this.listings.listAll(this.dataSource.manager)).map(toListingResponse);
  }

  async remove(network: Network, parentName: string): Promise<void> {
    if (!(await this.listings.delete(this.dataSource.manager, network, parentName)))
      throw new ListingNotFoundError(network, parentName);
  }

  /** The listing a mint uses: active, on that network, for the normalised parent name; null when there is none. */
  async findActive(network: Network, parentName: string): Promise<ListingEntity | null> {
    const entity = await this.listings.findOne(this.dataSource.manager, network, parentName);
    return entity?.active ? entity : null;
  }

  /** The public mint SDK's listing lookup; only active listings are visible. */
  async findForSdk(sdkNetwork: string, name: string): Promise<SdkListingResponse> {
    const network = SDK_NETWORKS[sdkNetwork];
    if (!(await this.findActive(network, name))) throw new ListingNotFoundError(network, name);
    return { name, nameNetwork: sdkNetwork, type: 'L1' };
  }
}
