import { Injectable } from '@nestjs/common';
import { ChangeFeed } from '../cache/change-feed';
import { RecordCache } from '../cache/record-cache';
import { Metrics } from '../metrics/metrics';

/** The channel the primary_names trigger notifies with each changed address (migration PrimaryNames). */
export const PRIMARY_NAME_CHANGES_CHANNEL = 'primary_name_changes';

/**
 * The name each address chose, by EIP-55 address (null: none), for the gateway's name() answers and GET.
 * ChangeFeed keeps it current across replicas, as SubnameCache is kept for records.
 */
@Injectable()
export class PrimaryNameCache extends RecordCache<string | null> {
  constructor(
    private readonly feed: ChangeFeed,
    metrics: Metrics = new Metrics(),
  ) {
    super({
      sizeOf: (name) => 96 + (name?.length ?? 0) * 2,
      onLookup: (hit) => metrics.cacheLookups.inc({ cache: 'primary-names', result: hit ? 'hit' : 'miss' }),
    });
    feed.register(PRIMARY_NAME_CHANGES_CHANNEL, this);
  }

  /** After a choice of this address commits: evicted here at once, and on the other replicas through Redis too. */
  written(address: string): void {
    this.feed.written(PRIMARY_NAME_CHANGES_CHANNEL, [address]);
  }
}
