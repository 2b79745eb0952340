import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ChangeFeed } from '../cache/change-feed';
import { nameHash } from '../common/ens/names';
import { AppConfig } from '../config/app-config';
import { PRIMARY_NAME_CHANGES_CHANNEL } from '../primary-names/primary-name-cache';
import { SUBNAME_CHANGES_CHANNEL } from '../subnames/subname-cache';

/** Keys in one PURGE: a Surrogate-Key header of about 7 KB, within every proxy's header limit. */
export const KEYS_PER_PURGE = 100;
/** Names waiting while the cache is down; past it the oldest are dropped (their answers expire anyway). */
const MAX_PENDING = 100_000;
const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;
const PURGE_TIMEOUT_MS = 2_000;

/** The namehashes whose gateway answers a change of `key` on `channel` makes stale (Surrogate-Key of section 16). */
export function surrogateKeysOf(channel: string, key: string): string[] {
  if (key === '*') return [];
  if (channel === SUBNAME_CHANGES_CHANNEL) return [nameHash(key)];
  if (channel === PRIMARY_NAME_CHANGES_CHANNEL) return [nameHash(`${key.slice(2).toLowerCase()}.addr.reverse`)];
  return [];
}

/**
 * CACHE_PURGE_URL: after each change of a name this replica commits (the change feed's `written`, so each write
 * is purged once, by the replica that wrote it), sends `PURGE` with `Surrogate-Key: <namehash>…` to the cache in
 * front of the gateway, at once; a failing target (no answer, 5xx, 408, 429) is retried with a growing delay until
 * it takes the purge.
 */
@Injectable()
export class AnswerPurger implements OnApplicationShutdown {
  private readonly logger = new Logger('AnswerPurger');
  private readonly pending = new Set<string>();
  private timer?: NodeJS.Timeout;
  private sending = false;
  private retryMs = 0;
  private stopped = false;

  constructor(
    feed: ChangeFeed,
    private readonly config: AppConfig,
  ) {
    if (config.resolutionCache.purgeUrl) feed.onWritten((channel, keys) => this.changed(channel, keys));
  }

  changed(channel: string, keys: string[]): void {
    for (const key of keys) for (const node of surrogateKeysOf(channel, key)) this.pending.add(node);
    while (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.values().next().value as string);
    if (this.pending.size > 0 && !this.timer && !this.sending) this.schedule(0);
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, ms);
  }

  private async flush(): Promise<void> {
    this.sending = true;
    try {
      while (this.pending.size > 0 && !this.stopped) {
        const batch = [...this.pending].slice(0, KEYS_PER_PURGE);
        for (const node of batch) this.pending.delete(node);
        if (!(await this.send(batch))) {
          for (const node of batch) this.pending.add(node);
          this.retryMs = Math.min(LAST_RETRY_MS, Math.max(FIRST_RETRY_MS, this.retryMs * 2));
          this.schedule(this.retryMs);
          return;
        }
        this.retryMs = 0;
      }
    } finally {
      this.sending = false;
    }
  }

  /** One PURGE; true once the cache took it (or refused it for good, which retrying would not change). */
  private async send(nodes: string[]): Promise<boolean> {
    const url = this.config.resolutionCache.purgeUrl!;
    try {
      const res = await fetch(url, {
        method: 'PURGE',
        headers: { 'Surrogate-Key': nodes.join(' ') },
        signal: AbortSignal.timeout(PURGE_TIMEOUT_MS),
      });
      await res.arrayBuffer();
      if (res.status >= 500 || res.status === 408 || res.status === 429) throw new Error(`answered ${res.status}`);
      if (res.status >= 400) this.logger.warn(`${url} refused PURGE with ${res.status}; not retried`);
      if (this.retryMs > 0) this.logger.log(`${url} takes purges again`);
      return true;
    } catch (e) {
      if (this.retryMs === 0) this.logger.warn(`PURGE to ${url} failed (${(e as Error).message}); retrying`);
      return false;
    }
  }
}
