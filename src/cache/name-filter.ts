import { Logger } from '@nestjs/common';
import { BloomFilter } from './bloom-filter';

export const MIN_CAPACITY = 65_536;
export const FALSE_POSITIVE_RATE = 0.01;
export const PAGE_SIZE = 10_000;
export const RETRY_MS = 5_000;

/** Where a build reads the stored names from. */
export interface NameSource {
  /** How many names are stored (sizes the filter). */
  count(): Promise<number>;
  /** Up to `limit` stored names after `after` ('' before the first), in one fixed order. */
  page(after: string, limit: number): Promise<string[]>;
}

export interface NameFilterOptions {
  now?: () => number;
  log?: (message: string) => void;
  warn?: (message: string) => void;
}

interface Build {
  /** Names added while the build reads: put into its filter at the end, so none is lost. */
  added: string[];
}

/**
 * Which names may be stored, as a Bloom filter: `absent` says true only for a name surely not stored, as far as
 * the adds it was given tell. It is built from the source in pages and then kept current by `add` (every name a
 * change notification carries); deletes need nothing (a stale "maybe" costs one read). `reset` (the change
 * channel was re-established: changes may have been missed) distrusts it until a build begun after the reset
 * completes; a build that a later reset overtakes is thrown away. Past its capacity it is built again, larger, in
 * the background, the old one answering meanwhile (still correct, only less selective).
 */
export class NameFilter {
  private filter?: BloomFilter;
  private trusted = false;
  private building?: Build;
  private retryTimer?: NodeJS.Timeout;
  private stopped = false;
  private readonly now: () => number;
  private readonly log: (message: string) => void;
  private readonly warn: (message: string) => void;

  constructor(
    private readonly source: NameSource,
    options: NameFilterOptions = {},
  ) {
    const logger = new Logger('NameFilter');
    this.now = options.now ?? Date.now;
    this.log = options.log ?? ((m) => logger.log(m));
    this.warn = options.warn ?? ((m) => logger.warn(m));
  }

  /** Built completely since the last reset. */
  get ready(): boolean {
    return this.trusted;
  }

  /** The filter in use, for the tests and the log. */
  get current(): BloomFilter | undefined {
    return this.filter;
  }

  /** True when `name` is surely not stored (ready, and not in the filter); false means "maybe". */
  absent(name: string): boolean {
    return this.trusted && !this.filter!.has(name);
  }

  /** A change of `name` was heard (or made here): it may be stored now. Idempotent. */
  add(name: string): void {
    this.building?.added.push(name);
    const filter = this.filter;
    if (filter?.add(name) && filter.size > filter.capacity && !this.building) this.start();
  }

  /** Changes may have been missed: trust nothing until a build begun now completes. */
  reset(): void {
    this.trusted = false;
    this.start();
  }

  stop(): void {
    this.stopped = true;
    this.building = undefined;
    clearTimeout(this.retryTimer);
  }

  private start(): void {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    const build: Build = { added: [] };
    this.building = build;
    void this.build(build);
  }

  private async build(build: Build): Promise<void> {
    const startedAt = this.now();
    let filter: BloomFilter;
    try {
      const stored = await this.source.count();
      if (this.building !== build) return;
      filter = new BloomFilter(Math.max(2 * stored, MIN_CAPACITY), FALSE_POSITIVE_RATE);
      for (let after = ''; ;) {
        const names = await this.source.page(after, PAGE_SIZE);
        if (this.building !== build) return;
        for (const name of names) filter.add(name);
        if (names.length < PAGE_SIZE) break;
        after = names[names.length - 1];
      }
    } catch (e) {
      if (this.building !== build) return;
      this.building = undefined;
      this.warn(`name filter build failed (${(e as Error).message}); retrying in ${RETRY_MS} ms`);
      this.retryTimer = setTimeout(() => this.start(), RETRY_MS);
      this.retryTimer.unref();
      return;
    }
    for (const name of build.added) filter.add(name);
    this.building = undefined;
    this.filter = filter;
    this.trusted = true;
    this.log(`name filter built: ${filter.size} names, ${filter.bits} bits, ${this.now() - startedAt} ms`);
    // Adds during a long build may already have filled it.
    if (filter.size > filter.capacity) this.start();
  }
}
