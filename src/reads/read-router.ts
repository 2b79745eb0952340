import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ChangeFeed } from '../cache/change-feed';
import { isStatementTimeout } from '../common/persistence/database-errors';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { ReadsRepository } from './reads.repository';
import { Standby, standbyDataSource } from './standby';
import { WalWatermark } from './wal-watermark';

/** How often each standby's replay is asked; a read returns to a standby this long after it caught up. */
export const STANDBY_POLL_MS = 200;
/** A standby whose last good poll is older than this (a poll hanging on a dead link) serves nothing. */
const STALE_AFTER_MS = 2_000;

/**
 * Where a public read runs (docs/operators.md#read-replicas): on a standby of DATABASE_READ_URL that has replayed
 * every change this process committed or heard of, is within DATABASE_READ_MAX_LAG_SECONDS, answers its polls and
 * did not fail the last read; else on the primary. Writes never come here.
 */
@Injectable()
export class ReadRouter implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Reads');
  private readonly standbys: Standby[];
  private readonly watermark: WalWatermark;
  private next = 0;
  private listening = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly config: AppConfig,
    @InjectDataSource() private readonly primary: DataSource,
    private readonly feed: ChangeFeed,
    repository: ReadsRepository,
    private readonly metrics: Metrics = new Metrics(),
  ) {
    const { database } = config;
    this.standbys = config.databaseRead.urls.map(
      (url) => new Standby(url, standbyDataSource({ url, ...database }), repository, this.logger),
    );
    this.watermark = new WalWatermark(() => repository.primaryPosition(primary.manager), this.logger);
    if (this.standbys.length > 0) feed.onChange(() => this.watermark.changed());
  }

  /** Runs `read` on the chosen database. */
  run<T>(read: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.route((db) => read(db.manager));
  }

  /** Runs `read` in a (read-only) transaction of its own on the chosen database. */
  transaction<T>(read: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.route((db) => db.transaction(read));
  }

  /** A standby's failure (other than a statement timeout, which the primary would meet too) is retried on the primary. */
  private async route<T>(read: (db: DataSource) => Promise<T>): Promise<T> {
    const standby = this.pick();
    if (standby) {
      try {
        this.metrics.dbReads.inc({ target: 'replica' });
        return await read(standby.dataSource);
      } catch (e) {
        if (isStatementTimeout(e)) throw e;
        standby.failed(e);
      }
    }
    this.metrics.dbReads.inc({ target: 'primary' });
    return read(this.primary);
  }

  onApplicationBootstrap(): void {
    if (this.standbys.length === 0) return;
    this.logger.log(
      `public reads from ${this.standbys.length} standby(s) once they replayed every known write ` +
        `(at most ${this.config.databaseRead.maxLagSeconds} s behind), else from the primary`,
    );
    this.tick();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.all(this.standbys.map((s) => s.stop()));
  }

  private tick(): void {
    void this.watermark.learn();
    for (const standby of this.standbys) void standby.poll();
    this.timer = setTimeout(() => this.tick(), STANDBY_POLL_MS);
    this.timer.unref();
  }

  /** Whether every change is heard; listening again re-learns the watermark, since changes went unheard. */
  private heardEverything(): boolean {
    const listening = this.feed.listening;
    if (listening && !this.listening) this.watermark.changed();
    this.listening = listening;
    return listening;
  }

  /** A standby that serves the watermark, in turn; none while a change is unplaced or changes go unheard. */
  private pick(): Standby | undefined {
    const n = this.standbys.length;
    if (n === 0 || !this.heardEverything()) return undefined;
    const watermark = this.watermark.value;
    if (watermark === undefined) return undefined;
    const maxLag = this.config.databaseRead.maxLagSeconds;
    for (let i = 0; i < n; i++) {
      const standby = this.standbys[(this.next + i) % n];
      if (standby.serves(watermark, maxLag, STALE_AFTER_MS)) {
        this.next = (this.next + i + 1) % n;
        return standby;
      }
    }
    return undefined;
  }
}
