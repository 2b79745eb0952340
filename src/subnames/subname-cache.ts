import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChangeFeed } from '../cache/change-feed';
import { NameFilter } from '../cache/name-filter';
import { RecordCache } from '../cache/record-cache';
import { Metrics } from '../metrics/metrics';
import type { SubnameEntity } from './subname.entity';
import { SubnamesRepository } from './subnames.repository';

/** The channel the subnames trigger notifies with each changed full name (migration SubnameChangeNotifications). */
export const SUBNAME_CHANGES_CHANNEL = 'subname_changes';

function recordChars(map: Record<string, string>): number {
  let n = 0;
  for (const key in map) n += key.length + map[key].length;
  return n;
}

/** Approximate characters an entity holds (its record maps dominate). */
export function entityChars(entity: SubnameEntity | null): number {
  if (!entity) return 64;
  return (
    256 +
    entity.fullName.length * 2 +
    recordChars(entity.texts) +
    recordChars(entity.addresses) +
    recordChars(entity.metadata) +
    (entity.contenthash?.length ?? 0)
  );
}

/**
 * Stored subnames by normalised full name (null: none stored), for the reads that wallets and mints repeat:
 * resolution, GET /subnames/{fullName} and the mint's existence check. ChangeFeed keeps it current across replicas.
 * Values are shared: callers must not modify them.
 *
 * It also owns the filter of the names that may be stored, so that the mint, which always asks about a new
 * label, can hear "no" without a read. Every change ChangeFeed hears, Redis relays or this process writes comes
 * through `evict`, and a new listening connection through `reset`: the filter follows exactly those.
 */
@Injectable()
export class SubnameCache extends RecordCache<SubnameEntity | null> implements BeforeApplicationShutdown {
  readonly names: NameFilter;

  constructor(
    private readonly feed: ChangeFeed,
    subnames: SubnamesRepository,
    @InjectDataSource() dataSource: DataSource,
    private readonly metrics: Metrics = new Metrics(),
  ) {
    super({
      sizeOf: entityChars,
      onLookup: (hit) => metrics.cacheLookups.inc({ cache: 'subnames', result: hit ? 'hit' : 'miss' }),
    });
    this.names = new NameFilter({
      count: () => subnames.count(dataSource.manager),
      page: (after, limit) => subnames.fullNamesAfter(dataSource.manager, after, limit),
    });
    feed.register(SUBNAME_CHANGES_CHANNEL, this);
  }

  /** After a write of these names commits: evicted here at once, and on the other replicas through Redis too. */
  written(fullNames: string[]): void {
    this.feed.written(SUBNAME_CHANGES_CHANNEL, fullNames);
  }

  override evict(key: string): void {
    super.evict(key);
    this.names.add(key);
  }

  /** The filter is rebuilt from what is stored now, since changes may have been missed before this moment. */
  override reset(): void {
    super.reset();
    this.names.reset();
  }

  /**
   * True only when no subname of this full name is stored, known without a read: the filter was built since the
   * channel was last re-established, the channel is proven now (so every change committed more than
   * CONFIRMATION_WINDOW_MS ago has been added), and the name is not in it. Otherwise "maybe": read through.
   */
  absent(fullName: string): boolean {
    // A use like any read: the channel keeps proving itself only while the cache is in use.
    this.lastUsedAt = this.now();
    const absent = this.confirmed && this.names.absent(fullName);
    this.metrics.cacheLookups.inc({ cache: 'names', result: absent ? 'absent' : 'maybe' });
    return absent;
  }

  beforeApplicationShutdown(): void {
    this.names.stop();
  }
}
