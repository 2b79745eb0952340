import { Injectable } from '@nestjs/common';
import { ChangeFeed } from '../cache/change-feed';
import { RecordCache } from '../cache/record-cache';
import { Metrics } from '../metrics/metrics';
import type { Network } from '../signing/mint-context';
import type { ListingEntity } from './listing.entity';

/** The channel the listings trigger notifies with each changed key (migration ListingChangeNotifications). */
export const LISTING_CHANGES_CHANNEL = 'listing_changes';
export const MAX_LISTINGS = 10_000;
export const MAX_LISTING_CHARS = 8 * 1024 * 1024;

/** The cache key of a listing, as the trigger spells it: `network/parent_name`. */
export function listingKey(network: Network, parentName: string): string {
  return `${network}/${parentName}`;
}

/** Approximate characters a listing holds (its reserved labels and length prices can be long). */
export function listingChars(listing: ListingEntity | null): number {
  if (!listing) return 64;
  let n = 256 + listing.parentName.length * 2;
  for (const label of listing.reservedLabels) n += label.length + 8;
  for (const length in listing.lengthPrices) n += length.length + listing.lengthPrices[length].length + 8;
  return n;
}

/**
 * Listings by network and normalised parent name (null: none, so that mints under unlisted names cost no query
 * either), for the mint's lookups. ChangeFeed keeps it current across replicas. Values are shared: callers must
 * not modify them.
 */
@Injectable()
export class ListingCache extends RecordCache<ListingEntity | null> {
  constructor(
    private readonly feed: ChangeFeed,
    metrics: Metrics = new Metrics(),
  ) {
    super({
      maxEntries: MAX_LISTINGS,
      maxChars: MAX_LISTING_CHARS,
      sizeOf: listingChars,
      onLookup: (hit) => metrics.cacheLookups.inc({ cache: 'listings', result: hit ? 'hit' : 'miss' }),
    });
    feed.register(LISTING_CHANGES_CHANNEL, this);
  }

  /** After a change of this listing commits: evicted here at once, and on the other replicas through Redis too. */
  written(network: Network, parentName: string): void {
    this.feed.written(LISTING_CHANGES_CHANNEL, [listingKey(network, parentName)]);
  }
}
