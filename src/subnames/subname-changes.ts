import { randomBytes } from 'node:crypto';
import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { Client, type Notification } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { AppConfig } from '../config/app-config';
import { subnameChangesConfirmed } from '../metrics/metrics';
import { SubnameCache } from './subname-cache';

/** The channel the subnames trigger notifies (migration SubnameChangeNotifications). */
export const CHANGES_CHANNEL = 'subname_changes';
const PROBE_PREFIX = 'probe:';
const PROBE_INTERVAL_MS = 250;
const PROBE_TIMEOUT_MS = 500;
const MAX_PROBE_BACKOFF_MS = 5_000;
/** Nobody has read through the cache for this long: stop proving the channel until someone does. */
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
  arrived: () => void;
}

/**
 * Keeps SubnameCache current on every replica. A dedicated PostgreSQL connection LISTENs to `subname_changes`
 * (each committed insert, update or delete notifies its full name) and evicts each name it hears, reconnecting
 * by itself. The channel proves itself: every PROBE_INTERVAL_MS while the cache is in use, a NOTIFY is sent through
 * the ordinary pool and must come back on the listening connection; since notifications arrive in commit order,
 * its arrival proves every earlier change has been heard, and only then may cached entries outlive one second
 * (SubnameCache). Where LISTEN does not reach other sessions' notifications (the embedded database's wire server,
 * a transaction-pooling proxy) the probe never comes back and cached entries live under a second.
 * With REDIS_URL, this service's own writes are also published on Redis, so that other replicas evict them
 * even while their PostgreSQL channel is down; Redis cannot vouch for writes made elsewhere, so it proves nothing.
 */
@Injectable()
export class SubnameChanges implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('SubnameChanges');
  private readonly instance = randomBytes(6).toString('hex');
  private readonly redisChannel: string;
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
    private readonly cache: SubnameCache,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.redisChannel = `${config.redisKeyPrefix}subname-changes`;
    subnameChangesConfirmed.set(0);
  }

  onApplicationBootstrap(): void {
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
    this.cache.unconfirm();
    subnameChangesConfirmed.set(0);
    if (client) await closeClient(client);
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    this.redisSub?.disconnect();
    this.redisPub?.disconnect();
  }

  /** After a write commits here: evict at once in this process, and tell the other replicas through Redis. */
  written(fullNames: string[]): void {
    for (const name of fullNames) this.cache.evict(name);
    if (this.redisPub?.status !== 'ready' || fullNames.length === 0) return;
    const message = JSON.stringify({ from: this.instance, names: fullNames });
    this.redisPub.publish(this.redisChannel, message).catch(() => undefined);
  }

  private listenerUrl(): string | undefined {
    return (this.dataSource.options as PostgresConnectionOptions).url;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new Client({
      connectionString: this.listenerUrl(),
      connectionTimeoutMillis: this.config.database.connectTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: 'ens-subname-service:changes',
    });
    this.current = client;
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client, new Error('connection closed')));
    client.on('notification', (n: Notification) => this.heard(n.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (e) {
      this.lost(client, e as Error);
      return;
    }
    if (this.current !== client) return;
    this.listening = true;
    this.reconnectDelay = RECONNECT_MIN_MS;
    // Changes made while nobody listened were not heard: nothing cached before now can be vouched for.
    this.cache.reset();
    this.logger.log(`listening for subname changes on ${CHANGES_CHANNEL}`);
  }

  private lost(client: Client, e: Error): void {
    if (this.current !== client) return;
    this.current = undefined;
    const wasListening = this.listening;
    this.listening = false;
    this.cache.unconfirm();
    subnameChangesConfirmed.set(0);
    client.removeAllListeners('notification');
    client.on('error', () => undefined);
    void closeClient(client);
    if (this.closed) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
    const message = `subname change channel ${wasListening ? 'lost' : 'unavailable'} (${e.message}); cached records live under 1 s; retrying in ${delay} ms`;
    if (wasListening) this.logger.warn(message);
    else this.logger.debug(message);
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
    this.reconnectTimer.unref();
  }

  private heard(payload: string): void {
    if (payload.startsWith(PROBE_PREFIX)) {
      if (this.probe?.id === payload) this.probe.arrived();
      return;
    }
    if (payload === '*') this.cache.evictAll();
    else this.cache.evict(payload);
  }

  /** One round of the proof: NOTIFY through the pool, wait for it on the listening connection. */
  private async probeOnce(): Promise<void> {
    const now = Date.now();
    if (!this.listening || this.closed || this.probe || now < this.nextProbeAt) return;
    if (now - this.cache.lastUsedAt > IDLE_AFTER_MS) return;
    const id = `${PROBE_PREFIX}${this.instance}:${++this.probeSeq}`;
    let timer: NodeJS.Timeout | undefined;
    const arrival = new Promise<boolean>((resolve) => {
      this.probe = { id, arrived: () => resolve(true) };
      timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
    });
    const sentAt = Date.now();
    let arrived = false;
    try {
      await this.dataSource.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, id]);
      arrived = await arrival;
    } catch {
      arrived = false;
    } finally {
      clearTimeout(timer);
      this.probe = undefined;
    }
    if (arrived) {
      this.cache.confirm(sentAt);
      subnameChangesConfirmed.set(1);
      this.probeFailures = 0;
      this.nextProbeAt = 0;
      this.warnedProbe = false;
      return;
    }
    subnameChangesConfirmed.set(this.cache.confirmed ? 1 : 0);
    this.probeFailures += 1;
    this.nextProbeAt = Date.now() + Math.min(PROBE_INTERVAL_MS * 2 ** this.probeFailures, MAX_PROBE_BACKOFF_MS);
    if (this.probeFailures >= 3 && !this.warnedProbe) {
      this.warnedProbe = true;
      this.logger.warn(
        'subname change notifications do not come back on the listening connection (an embedded database or a ' +
          'transaction-pooling proxy?); cached records live under 1 s',
      );
    }
  }

  private startRedis(url: string): void {
    const options = {
      lazyConnect: true,
      connectTimeout: 2_000,
      retryStrategy: (times: number) => Math.min(times * 250, 2_000),
    };
    this.redisSub = new Redis(url, { ...options, maxRetriesPerRequest: null });
    this.redisPub = new Redis(url, {
      ...options,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 500,
    });
    // ioredis emits 'error' on every failed reconnect; without a listener that would crash the process.
    this.redisSub.on('error', () => undefined);
    this.redisPub.on('error', () => undefined);
    this.redisSub.on('message', (_channel: string, message: string) => this.published(message));
    this.redisSub.subscribe(this.redisChannel).catch((e: Error) => this.logger.warn(`Redis subscribe: ${e.message}`));
    this.redisPub.connect().catch(() => undefined);
  }

  private published(message: string): void {
    try {
      const { from, names } = JSON.parse(message) as { from?: unknown; names?: unknown };
      if (from === this.instance || !Array.isArray(names)) return;
      for (const name of names) if (typeof name === 'string') this.cache.evict(name);
    } catch {
      // not ours
    }
  }
}
