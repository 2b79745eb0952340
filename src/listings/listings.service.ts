import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { changedFields } from '../audit/audit-diff';
import { AuditService } from '../audit/audit.service';
import type { Actor, AuditFields } from '../audit/audit.types';
import { ListingResponse, PutListingDto, SdkListingResponse, SDK_NETWORKS, toListingResponse } from './dto/listing.dto';
import { ListingCache, listingKey } from './listing-cache';
import { ListingEntity } from './listing.entity';
import { ListingsRepository } from './listings.repository';
import type { Network } from '../signing/mint-context';
import { ListingNotFoundError } from './listings.errors';

/** What the audit trail records of a listing: every field a PUT sets (network and name are the subject). */
function auditedListing(e: ListingEntity): AuditFields {
  return {
    price: e.price,
    lengthPrices: e.lengthPrices,
    fee: e.fee,
    paymentReceiver: e.paymentReceiver,
    expirable: e.expirable,
    fuses: e.fuses,
    reservedLabels: e.reservedLabels,
    active: e.active,
  };
}

/** Listings: what a parent name sells its subnames for, per network; administered, read by the mint. */
@Injectable()
export class ListingsService {
  constructor(
    private readonly listings: ListingsRepository,
    private readonly audit: AuditService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cache: ListingCache,
  ) {}

  /** PUT: creates or replaces the whole listing. Names, labels and the receiver come canonical from the pipe. */
  async put(network: Network, parentName: string, dto: PutListingDto, by: Actor): Promise<ListingResponse> {
    const result = await this.dataSource.transaction(async (manager) => {
      const { entity, previous } = await this.listings.upsert(manager, {
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
      const change = previous
        ? changedFields(auditedListing(previous), auditedListing(entity))
        : { before: null, after: auditedListing(entity) };
      await this.audit.record(manager, { by, action: 'listing.put', subject: `${network}/${parentName}`, ...change });
      return toListingResponse(entity);
    });
    this.cache.written(network, parentName);
    return result;
  }

  /** The administrator's view reads the database, not the mint's cache. */
  async findOrFail(network: Network, parentName: string): Promise<ListingResponse> {
    const entity = await this.listings.findOne(this.dataSource.manager, network, parentName);
    if (!entity) throw new ListingNotFoundError(network, parentName);
    return toListingResponse(entity);
  }

  async list(): Promise<ListingResponse[]> {
    return (await this.listings.listAll(this.dataSource.manager)).map(toListingResponse);
  }

  async remove(network: Network, parentName: string, by: Actor): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const deleted = await this.listings.delete(manager, network, parentName);
      if (!deleted) throw new ListingNotFoundError(network, parentName);
      const subject = `${network}/${parentName}`;
      await this.audit.record(manager, {
        by,
        action: 'listing.delete',
        subject,
        before: auditedListing(deleted),
        after: null,
      });
    });
    this.cache.written(network, parentName);
  }

  /**
   * The listing a mint uses: active, on that network, for the normalised parent name; null when there is none.
   * Through the listing cache: a change here is seen at once by this process, and within a second by every
   * replica. The entity is shared: not to be modified.
   */
  async findActive(network: Network, parentName: string): Promise<ListingEntity | null> {
    const entity = await this.cache.get(listingKey(network, parentName), () =>
      this.listings.findOne(this.dataSource.manager, network, parentName),
    );
    return entity?.active ? entity : null;
  }

  /** The public mint SDK's listing lookup; only active listings are visible. */
  async findForSdk(sdkNetwork: string, name: string): Promise<SdkListingResponse> {
    const network = SDK_NETWORKS[sdkNetwork];
    if (!(await this.findActive(network, name))) throw new ListingNotFoundError(network, name);
    return { name, nameNetwork: sdkNetwork, type: 'L1' };
  }
}
