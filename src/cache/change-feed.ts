import { randomBytes } from 'node:crypto';
import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis, { type RedisOptions } from 'ioredis';
import { Client, type ClientConfig } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { ChangeListener } from './change-listener';
import { ChangeProbe } from './change-probe';
import { type ChangeTarget, ChangeTopics } from './change-topics';
import { RedisRelay } from './redis-relay';

export type { ChangeTarget } from './change-topics';

/**
 * Keeps the registered caches (SubnameCache, ListingCache) current on every replica. Each cache has a PostgreSQL
 * channel that a trigger notifies with the key of every committed change; one dedicated connection
 * (ChangeListener) LISTENs to all of them and evicts each key it hears. The channels prove themselves
 * (ChangeProbe) before cached entries may outlive one second; where LISTEN does not reach other sessions'
 * notifications (the embedded database's wire server, a transaction-pooling proxy) the probe never comes back
 * and cached entries live under a second. With REDIS_URL, this service's own writes are also relayed through
 * Redis (RedisRelay) to the other replicas.
 */
@Injectable()
export class ChangeFeed implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('ChangeFeed');
  private readonly instance = randomBytes(6).toString('hex');
  private readonly topics = new ChangeTopics();
  private readonly listener: ChangeListener;
  private readonly probe: ChangeProbe;
  private relay?: RedisRelay;
  private started = false;
  private readonly writeHooks: ((channel: string, keys: string[]) => void)[] = [];
  private readonly watchers: (() => void)[] = [];

  constructor(
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    metrics: Metrics = new Metrics(),
  ) {
    const channelUp = metrics.changeChannelUp;
    channelUp.set(0);
    const { topics, logger, instance } = this;
    this.listener = new ChangeListener({
      topics,
      logger,
      channelUp,
      createClient: () => this.createClient(this.clientConfig()),
      heard: (channel, payload) => {
        if (this.probe.heard(channel, payload)) return;
        topics.evict(channel, payload);
        this.changed();
      },
    });
    this.probe = new ChangeProbe({
      topics,
      logger,
      channelUp,
      instance,
      listening: () => this.listener.listening,
      notify: (channels, id) =>
        this.dataSource.query('SELECT pg_notify(c, $2) FROM unnest($1::text[]) AS c', [channels, id]),
    });
  }

  /**
   * Keeps `cache` current from `channel` (a lower-case SQL identifier); the Redis channel is the same name with
   * dashes under REDIS_KEY_PREFIX. Caches register while the application is built, before it listens.
   */
  register(channel: string, cache: ChangeTarget): void {
    if (!/^[a-z][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    if (this.started) throw new Error(`${channel} registered after the change feed started`);
    if (this.topics.get(channel)) throw new Error(`${channel} registered twice`);
    const redisChannel = `${this.config.redisKeyPrefix}${channel.replace(/_/g, '-')}`;
    this.topics.add({ channel, redisChannel, cache });
  }

  /** After a change of these keys commits here: evict at once in this process, and tell the other replicas. */
  written(channel: string, keys: string[]): void {
    const topic = this.topics.get(channel);
    if (!topic) throw new Error(`no cache registered for ${channel}`);
    for (const key of keys) topic.cache.evict(key);
    this.changed();
    this.relay?.publish(topic, keys);
    for (const hook of this.writeHooks) hook(channel, keys);
  }

  /** Runs `hook` after each change this replica commits (once per write: the replica that wrote). */
  onWritten(hook: (channel: string, keys: string[]) => void): void {
    this.writeHooks.push(hook);
  }

  /** `watcher` runs at each change committed here or heard from PostgreSQL (the read router's cue). */
  onChange(watcher: () => void): void {
    this.watchers.push(watcher);
  }

  /** Whether changes committed by other sessions are heard now. */
  get listening(): boolean {
    return this.listener.listening;
  }

  onApplicationBootstrap(): void {
    this.started = true;
    if (this.topics.size === 0) return;
    this.listener.start();
    this.probe.start();
    const url = this.config.redisUrl;
    if (!url) return;
    const { topics, logger, instance } = this;
    this.relay = new RedisRelay({ topics, logger, instance, createRedis: (options) => this.createRedis(url, options) });
    this.relay.start();
  }

  /** Stops before the pool closes, so that no probe runs into a closing pool. */
  async beforeApplicationShutdown(): Promise<void> {
    this.probe.stop();
    await this.listener.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    this.relay?.stop();
  }

  private changed(): void {
    for (const watcher of this.watchers) watcher();
  }

  /** The listening connection; a seam for the unit tests. */
  protected createClient(config: ClientConfig): Client {
    return new Client(config);
  }

  /** A Redis connection; a seam for the unit tests. */
  protected createRedis(url: string, options: RedisOptions): Redis {
    return new Redis(url, options);
  }

  private clientConfig(): ClientConfig {
    return {
      connectionString: (this.dataSource.options as PostgresConnectionOptions).url,
      connectionTimeoutMillis: this.config.database.connectTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: 'ens-subname-service:changes',
    };
  }
}
