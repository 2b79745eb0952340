import { Injectable, OnModuleInit } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the pool gauges read: pg's Pool counters. */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * One application's Prometheus registry and its metrics; /metrics serves it. A provider (MetricsModule), so two
 * applications in one process (as the e2e suites make) count apart; the modules that count inject it.
 */
@Injectable()
export class Metrics implements OnModuleInit {
  readonly registry = new Registry();

  readonly quotaRefusals = new Counter({
    name: 'subname_quota_refusals_total',
    help: 'Subname creations refused because the key had no quota left',
    registers: [this.registry],
  });

  readonly signaturesMade = new Counter({
    name: 'mint_signatures_total',
    help: 'EIP-712 mint signatures made',
    labelNames: ['network'] as const,
    registers: [this.registry],
  });

  readonly ccipSignaturesMade = new Counter({
    name: 'ccip_signatures_total',
    help: 'CCIP-Read gateway answers signed',
    registers: [this.registry],
  });

  readonly signingThreadUp = new Gauge({
    name: 'signing_thread_up',
    help: '1 while signatures are made on the signing thread; 0 while on the event loop (SIGNING_THREAD off, or the thread stopped)',
    registers: [this.registry],
  });

  readonly cacheLookups = new Counter({
    name: 'cache_lookups_total',
    help: 'Reads through an in-process cache (subnames: stored subnames by full name; listings: listings by network and parent name), by result (hit or miss); names: the mint existence check answered from the name filter (absent) or read through (maybe)',
    labelNames: ['cache', 'result'] as const,
    registers: [this.registry],
  });

  readonly changeChannelUp = new Gauge({
    name: 'subname_changes_channel_up',
    help: '1 while the PostgreSQL change notifications (subnames and listings) are proven to arrive (cached entries live up to 60 s); 0 while cached entries live at most 1 s',
    registers: [this.registry],
  });

  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its response, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly httpInFlight = new Gauge({
    name: 'http_requests_in_flight',
    help: 'HTTP requests received and not yet answered',
    registers: [this.registry],
  });

  readonly dbReads = new Counter({
    name: 'db_reads_total',
    help: 'Public reads (resolution, GET /subnames, search) by the database that answered them: primary, or replica (a PostgreSQL standby of DATABASE_READ_URL that had replayed every write known here)',
    labelNames: ['target'] as const,
    registers: [this.registry],
  });

  private readonly dbPoolConnections = new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by state: in_use (checked out by a query or transaction) or idle',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });

  private readonly dbPoolWaiting = new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Queries waiting for a free PostgreSQL pool connection',
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'http_rate_limited_total',
    help: 'Requests refused with 429, by the budget that ran out (key or ip)',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  readonly rateLimitRedisUp = new Gauge({
    name: 'rate_limit_redis_up',
    help: '1 while rate-limit counters are shared through Redis; 0 while they fall back to this process (or no REDIS_URL)',
    registers: [this.registry],
  });

  /** Process metrics (CPU, memory, event loop lag, GC, handles) under their standard names, in an application. */
  onModuleInit(): void {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Sets the pool gauges from a pool's counters (zero without a pool). */
  setPoolGauges(pool: PoolCounts | undefined): void {
    this.dbPoolConnections.set({ state: 'in_use' }, pool ? pool.totalCount - pool.idleCount : 0);
    this.dbPoolConnections.set({ state: 'idle' }, pool?.idleCount ?? 0);
    this.dbPoolWaiting.set(pool?.waitingCount ?? 0);
  }
}
