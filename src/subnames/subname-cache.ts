import { Injectable } from '@nestjs/common';
import { ChangeFeed } from '../cache/change-feed';
import { RecordCache } from '../cache/record-cache';
import { cacheLookups } from '../metrics/metrics';
import type { SubnameEntity } from './subname.entity';

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
 */
@Injectable()
export class SubnameCache extends RecordCache<SubnameEntity | null> {
  constructor(private readonly feed: ChangeFeed) {
    super({
      sizeOf: entityChars,
      onLookup: (hit) => cacheLookups.inc({ cache: 'subnames', result: hit ? 'hit' : 'miss' }),
    });
    feed.register(SUBNAME_CHANGES_CHANNEL, this);
  }

  /** After a write of these names commits: evicted here at once, and on the other replicas through Redis too. */
  written(fullNames: string[]): void {
    this.feed.written(SUBNAME_CHANGES_CHANNEL, fullNames);
  }
}
