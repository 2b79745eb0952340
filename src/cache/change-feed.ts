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
import { Client, type ClientConfig, type Notification } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { AppConfig } from '../config/app-config';
import { changeChannelUp } from '../metrics/metrics';

/** What the feed does to a cache (RecordCache): evict changed keys, and say how far the channel is proven. */
export interface ChangeTarget {
  evict(key: string): void;
  evictAll(): void;
  confirm(sentAt: number): void;
  reset(): void;
  unconfirm(): void;
  readonly confirmed: boolean;
  readonly lastUsedAt: number;
}

interface Topic {
  /** The PostgreSQL channel a trigger notifies with each changed key (`*`: everything, for a TRUNCATE). */
  channel: string;
  redisChannel: string;
  cache: ChangeTarget;
}

const PROBE_PREFIX = 'probe:';
const PROBE_INTERVAL_MS = 250;
const PROBE_TIMEOUT_MS = 500;
const MAX_PROBE_BACKOFF_MS = 5_000;
/** Nobody has read through a cache for this long: stop proving the channel until someone does. */
const IDLE_AFTER_MS = 10_000;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 10_000;

const CLOSE_TIMEOUT_MS = 1_000;

/** Ends a connection politely, or drops its socket when the server does not answer (a black-holed database). */
async function closeClient(client: Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_TIMEOUT_MS)));
  const ended = client.end().then(
    () => true,
    () => false,
  );
  const closed = await Promise.race([ended, timeout]);
  clearTimeout(timer);
  if (!closed) (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

interface Probe {
  id: string;
  /** Channels the probe has not come back on yet. */
  pending: Set<string>;
  arrived: () => void;
}

/**
 * Keeps the registered caches (SubnameCache, ListingCache) current on every replica. Each cache has a PostgreSQL
 * channel that a trigger notifies with the key of every committed change; one dedicated connection LISTENs to all
 * of them and evicts each key it hears, reconnecting by itself. The channels prove themselves: every
 * PROBE_INTERVAL_MS while a cache is in use, one statement through the ordinary pool NOTIFYs a probe on every
 * channel, and each must come back on the listening connection; notifications arrive in commit order, so their
 * arrival proves every earlier change has been heard, and only then may cached entries outlive one second
 * (RecordCache). Where LISTEN does not reach other sessions' notifications (the embedded database's wire server,
 * a transaction-pooling proxy) the probe never comes back and cached entries live under a second.
 * With REDIS_URL, this service's own writes are also published on Redis, so that other replicas evict them
 * even while their PostgreSQL channel is down; Redis cannot vouch for writes made elsewhere, so it proves nothing.
 */
@Injectable()
export class ChangeFeed implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('ChangeFeed');
  private readonly instance = randomBytes(6).toString('hex');
  private readonly topics = new Map<string, Topic>();
  private started = false;
  private current?: Client;
  private listening = false;
  private closed = false;
  private reconnectDelay = RECONNECT_MIN_MS;
  private reconnectTimer?: NodeJS.Timeout;
  private probeTimer?: NodeJS.Timeout;
  private probe?: Probe;
  private probeSeq = 0;
  private probeFailures = 0;
  private nextProbeAt = 0;
  private warnedProbe = false;
  private redisSub?: Redis;
  private redisPub?: Redis;

  constructor(
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    changeChannelUp.set(0);
  }

  /**
   * Keeps `cache` current from `channel` (a lower-case SQL identifier); the Redis channel is the same name with
   * dashes under REDIS_KEY_PREFIX. Caches register while the application is built, before it listens.
   */
  register(channel: string, cache: ChangeTarget): void {
    if (!/^[a-z][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    if (this.started) throw new Error(`${channel} registered after the change feed started`);
    if (this.topics.has(channel)) throw new Error(`${channel} registered twice`);
    const redisChannel = `${this.config.redisKeyPrefix}${channel.replace(/_/g, '-')}`;
    this.topics.set(channel, { channel, redisChannel, cache });
  }

  /** After a change of these keys commits here: evict at once in this process, and tell the other replicas. */
  written(channel: string, keys: string[]): void {
    const topic = this.topics.get(channel);
    if (!topic) throw new Error(`no cache registered for ${channel}`);
    for (const key of keys) topic.cache.evict(key);
    if (this.redisPub?.status !== 'ready' || keys.length === 0) return;
    const message = JSON.stringify({ from: this.instance, names: keys });
    this.redisPub.publish(topic.redisChannel, message).catch(() => undefined);
  }

  onApplicationBootstrap(): void {
    this.started = true;
    if (this.topics.size === 0) return;
    void this.connect();
    this.probeTimer = setInterval(() => void this.probeOnce(), PROBE_INTERVAL_MS);
    this.probeTimer.unref();
    if (this.config.redisUrl) this.startRedis(this.config.redisUrl);
  }

  /** Stops before the pool closes, so that no probe runs into a closing pool. */
  async beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    clearInterval(this.probeTimer);
    clearTimeout(this.reconnectTimer);
    const client = this.current;
    this.current = undefined;
    this.listening = false;
    this.forEachCache((c) => c.unconfirm());
    changeChannelUp.set(0);
    if (client) await closeClient(client);
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    this.redisSub?.disconnect();
    this.redisPub?.disconnect();
  }

  /** The listening connection; a seam for the unit tests. */
  protected createClient(config: ClientConfig): Client {
    return new Client(config);
  }

  /** A Redis connection; a seam for the unit tests. */
  protected createRedis(url: string, options: RedisOptions): Redis {
    return new Redis(url, options);
  }

  private forEachCache(action: (cache: ChangeTarget) => void): void {
    for (const topic of this.topics.values()) action(topic.cache);
  }

  private get lastUsedAt(): number {
    let last = -Infinity;
    for (const topic of this.topics.values()) last = Math.max(last, topic.cache.lastUsedAt);
    return last;
  }

  private get confirmed(): boolean {
    return [...this.topics.values()].every((t) => t.cache.confirmed);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = this.createClient({
      connectionString: (this.dataSource.options as PostgresConnectionOptions).url,
      connectionTimeoutMillis: this.config.database.connectTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: 'ens-subname-service:changes',
    });
    this.current = client;
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client, new Error('connection closed')));
    client.on('notification', (n: Notification) => this.heard(n.channel, n.payload ?? ''));
    try {
      await client.connect();
      for (const channel of this.topics.keys()) await client.query(`LISTEN ${channel}`);
    } catch (e) {
      this.lost(client, e as Error);
      return;
    }
    if (this.current !== client) return;
    this.listening = true;
    this.reconnectDelay = RECONNECT_MIN_MS;
    // Changes made while nobody listened were not heard: nothing cached before now can be vouched for.
    this.forEachCache((c) => c.reset());
    this.logger.log(`listening for changes on ${[...this.topics.keys()].join(', ')}`);
  }

  private lost(client: Client, e: Error): void {
    if (this.current !== client) return;
    this.current = undefined;
    const wasListening = this.listening;
    this.listening = false;
    this.forEachCache((c) => c.unconfirm());
    changeChannelUp.set(0);
    client.removeAllListeners('notification');
    client.on('error', () => undefined);
    void closeClient(client);
    if (this.closed) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
    const message = `change channel ${wasListening ? 'lost' : 'unavailable'} (${e.message}); cached entries live under 1 s; retrying in ${delay} ms`;
    if (wasListening) this.logger.warn(message);
    else this.logger.debug(message);
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
    this.reconnectTimer.unref();
  }

  private heard(channel: string, payload: string): void {
    if (payload.startsWith(PROBE_PREFIX)) {
      const probe = this.probe;
      if (probe?.id !== payload) return;
      probe.pending.delete(channel);
      if (probe.pending.size === 0) probe.arrived();
      return;
    }
    const cache = this.topics.get(channel)?.cache;
    if (!cache) return;
    if (payload === '*') cache.evictAll();
    else cache.evict(payload);
  }

  /** One round of the proof: NOTIFY every channel through the pool, wait for each on the listening connection. */
  private async probeOnce(): Promise<void> {
    const now = Date.now();
    if (!this.listening || this.closed || this.probe || now < this.nextProbeAt) return;
    if (now - this.lastUsedAt > IDLE_AFTER_MS) return;
    const id = `${PROBE_PREFIX}${this.instance}:${++this.probeSeq}`;
    const channels = [...this.topics.keys()];
    let timer: NodeJS.Timeout | undefined;
    const arrival = new Promise<boolean>((resolve) => {
      this.probe = { id, pending: new Set(channels), arrived: () => resolve(true) };
      timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
    });
    const sentAt = Date.now();
    let arrived = false;
    try {
      await this.dataSource.query('SELECT pg_notify(c, $2) FROM unnest($1::text[]) AS c', [channels, id]);
      arrived = await arrival;
    } catch {
      arrived = false;
    } finally {
      clearTimeout(timer);
      this.probe = undefined;
    }
    if (arrived) {
      this.forEachCache((c) => c.confirm(sentAt));
      changeChannelUp.set(1);
      this.probeFailures = 0;
      this.nextProbeAt = 0;
      this.warnedProbe = false;
      return;
    }
    changeChannelUp.set(this.confirmed ? 1 : 0);
    this.probeFailures += 1;
    this.nextProbeAt = Date.now() + Math.min(PROBE_INTERVAL_MS * 2 ** this.probeFailures, MAX_PROBE_BACKOFF_MS);
    if (this.probeFailures >= 3 && !this.warnedProbe) {
      this.warnedProbe = true;
      this.logger.warn(
        'change notifications do not come back on the listening connection (an embedded database or a ' +
          'transaction-pooling proxy?); cached entries live under 1 s',
      );
    }
  }

  private startRedis(url: string): void {
    const options = {
      lazyConnect: true,
      connectTimeout: 2_000,
      retryStrategy: (times: number) => Math.min(times * 250, 2_000),
    };
    this.redisSub = this.createRedis(url, { ...options, maxRetriesPerRequest: null });
    this.redisPub = this.createRedis(url, {
      ...options,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 500,
    });
    // ioredis emits 'error' on every failed reconnect; without a listener that would crash the process.
    this.redisSub.on('error', () => undefined);
    this.redisPub.on('error', () => undefined);
    this.redisSub.on('message', (channel: string, message: string) => this.published(channel, message));
    const channels = [...this.topics.values()].map((t) => t.redisChannel);
    this.redisSub.subscribe(...channels).catch((e: Error) => this.logger.warn(`Redis subscribe: ${e.message}`));
    this.redisPub.connect().catch(() => undefined);
  }

  private published(redisChannel: string, message: string): void {
    const topic = [...this.topics.values()].find((t) => t.redisChannel === redisChannel);
    if (!topic) return;
    try {
      const { from, names } = JSON.parse(message) as { from?: unknown; names?: unknown };
      if (from === this.instance || !Array.isArray(names)) return;
      for (const name of names) if (typeof name === 'string') topic.cache.evict(name);
    } catch {
      // not ours
    }
  }
}
