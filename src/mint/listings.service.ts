import { Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import { normalizeLabel, normalizeName } from '../common/ens';
import { ListingResponse, PutListingDto, SdkListingResponse, SDK_NETWORKS, toListingResponse } from './dto/listing.dto';
import { ListingEntity } from './listing.entity';
import { ListingsRepository } from './listings.repository';
import type { Network } from '../signing/mint-context';
import { ListingNotFoundError } from './mint.errors';

/** Listings: what a parent name sells its subnames for, per network; administered, read by the mint. */
@Injectable()
export class ListingsService {
  constructor(private readonly listings: ListingsRepository) {}

  /** PUT: creates or replaces the whole listing; the DTO has been validated, this derives the stored forms. */
  async put(network: Network, rawParentName: string, dto: PutListingDto): Promise<ListingResponse> {
    const entity = await this.listings.upsert({
      network,
      parentName: normalizeName(rawParentName),
      price: dto.price,
      lengthPrices: dto.lengthPrices ?? {},
      fee: dto.fee,
      paymentReceiver: getAddress(dto.paymentReceiver),
      expirable: dto.expirable,
      fuses: dto.fuses,
      reservedLabels: [...new Set((dto.reservedLabels ?? []).map((l) => normalizeLabel(l)))],
      active: dto.active ?? true,
    });
    return toListingResponse(entity);
  }

  async findOrFail(network: Network, rawParentName: string): Promise<ListingResponse> {
    const parentName = normalizeName(rawParentName);
    const entity = await this.listings.findOne(network, parentName);
    if (!entity) throw new ListingNotFoundError(network, parentName);
    return toListingResponse(entity);
  }

  async list(): Promise<ListingResponse[]> {
    return (await this.listings.listAll()).map(toListingResponse);
  }

  async remove(network: Network, rawParentName: string): Promise<void> {
    const parentName = normalizeName(rawParentName);
    if (!(await this.listings.delete(network, parentName))) throw new ListingNotFoundError(network, parentName);
  }

  /** The listing a mint uses: active, on that network, for the normalised parent name; null when there is none. */
  async findActive(network: Network, parentName: string): Promise<ListingEntity | null> {
    const entity = await this.listings.findOne(network, parentName);
    return entity?.active ? entity : null;
  }

  /** The public mint SDK's listing lookup; only active listings are visible. */
  async findForSdk(sdkNetwork: string, rawName: string): Promise<SdkListingResponse> {
    const network = SDK_NETWORKS[sdkNetwork];
    const name = normalizeName(rawName);
    if (!(await this.findActive(network, name))) throw new ListingNotFoundError(network, name);
    return { name, nameNetwork: sdkNetwork, type: 'L1' };
  }
}
