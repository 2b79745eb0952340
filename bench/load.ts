/**
 * The load generator of `npm run bench`: autocannon (raw keep-alive sockets), closed loop with a fixed number of
 * connections, one request in flight on each. Every request can differ (a fresh label, a fresh path) through
 * `next(i)`; a warm-up run comes first (JIT, pools, caches) and is not counted. Latencies are collected per
 * response, so that slices of one measurement add up to exact percentiles.
 *
 * A figure and its reference (the service's GET and the bare Express echo's) are measured paired: in alternating
 * slices of SLICE_SECONDS (A B B A A B…), so that both meet the machine in the same state. On a shared virtual
 * machine whose speed drifts from one minute to the next, a reference measured once, minutes before, moves a ratio
 * more than most changes do.
 */
import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  requests: number;
  seconds: number;
  throughput: number;
  p50: number;
  p99: number;
  /** Answers outside 2xx, transport errors and timeouts: anything but success. */
  errors: number;
  statuses: Record<string, number>;
  /** CPU time of the server's processes per completed request, in µs, when its slices measured it. */
  cpuUsPerRequest?: number;
}

export interface Workload {
  name: string;
  /** The base URL of the server under load. */
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  /** The i-th request: its path (after the base URL) and body. */
  next: (i: number) => { path: string; body?: string };
  /** Default: LOAD_CONNECTIONS. */
  connections?: number;
}

/** What one slice of load did. */
export interface Slice {
  /** Requests sent (indexes used), completed or not. */
  sent: number;
  seconds: number;
  /** Latency of each completed request, in ms. */
  latencies: number[];
  errors: number;
  statuses: Record<string, number>;
  /** CPU time the server's processes spent meanwhile, in ms (see `withCpu`). */
  cpuMs?: number;
}

/** Something that can be put under load for a while, its requests numbered from `offset`. */
export interface Load {
  name: string;
  slice(seconds: number, offset: number): Promise<Slice>;
}

export const LOAD_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
export const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
export const SLICE_SECONDS = Number(process.env.BENCH_SLICE_SECONDS ?? 1);
/** Request indexes of warm-ups lie past any measured slice's. */
const WARMUP_OFFSET = 1e9;

/** An HTTP workload as a `Load`: autocannon for `seconds`. */
export function httpLoad(w: Workload): Load {
  return { name: w.name, slice: (seconds, offset) => run(w, { duration: seconds }, offset) };
}

/** One run of exactly `amount` requests or `duration` seconds, no warm-up (a cache's first miss counts). */
export async function measureOnce(w: Workload, until: { duration: number } | { amount: number }): Promise<LoadResult> {
  return total(w.name, [await run(w, until, 0)]);
}

/** One autocannon run, for a duration or a number of requests, request indexes from `offset`. */
function run(w: Workload, until: { duration: number } | { amount: number }, offset: number): Promise<Slice> {
  const headers = { 'content-type': 'application/json', ...w.headers };
  let i = offset;
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: w.url,
        connections: w.connections ?? LOAD_CONNECTIONS,
        pipelining: 1,
        ...until,
        timeout: 30,
        requests: [
          {
            method: w.method ?? 'GET',
            headers,
            setupRequest: (req) => {
              const { path, body } = w.next(i++);
              return { ...req, path, body };
            },
          },
        ],
      },
      (err, r) => {
        if (err) return reject(err);
        const statuses: Record<string, number> = {};
        for (const [code, { count = 0 } = {}] of Object.entries(r.statusCodeStats ?? {})) statuses[code] = count;
        resolve({
          sent: i - offset,
          seconds: r.duration,
          latencies,
          errors: r.non2xx + r.errors + r.timeouts,
          statuses,
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

/** The p-th quantile of sorted latencies, in ms, to a tenth. */
function quantile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const v = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
  return Math.round(v * 10) / 10;
}

/** Adds slices up into one result. */
export function total(name: string, slices: Slice[]): LoadResult {
  const latencies = slices.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const seconds = slices.reduce((sum, s) => sum + s.seconds, 0);
  const statuses: Record<string, number> = {};
  for (const s of slices)
    for (const [code, n] of Object.entries(s.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  const cpuMs = slices.every((s) => s.cpuMs !== undefined) ? slices.reduce((sum, s) => sum + s.cpuMs!, 0) : undefined;
  return {
    name,
    requests: latencies.length,
    seconds,
    throughput: latencies.length / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors: slices.reduce((sum, s) => sum + s.errors, 0),
    statuses,
    ...(cpuMs !== undefined && latencies.length > 0 ? { cpuUsPerRequest: (cpuMs * 1000) / latencies.length } : {}),
  };
}

/**
 * A load whose slices also record the CPU time (user and system, from /proc) of the server's processes: `cpuMs()`
 * read before and after each slice. CPU per request moves far less than throughput on a shared machine.
 */
export function withCpu(load: Load, cpuMs: () => number): Load {
  return {
    name: load.name,
    slice: async (seconds, offset) => {
      const before = cpuMs();
      const s = await load.slice(seconds, offset);
      return { ...s, cpuMs: cpuMs() - before };
    },
  };
}

/** Warm up, then measure for LOAD_SECONDS. */
export async function measureLoad(load: Load): Promise<LoadResult> {
  if (WARMUP_SECONDS > 0) await load.slice(WARMUP_SECONDS, WARMUP_OFFSET);
  return total(load.name, [await load.slice(LOAD_SECONDS, 0)]);
}

/**
 * A figure and its reference, warmed up and then measured in alternating slices (A B B A A B…), LOAD_SECONDS of
 * each in all: the ratio of the two then compares them under the same machine. Returns [a, b].
 */
export async function measurePaired(a: Load, b: Load): Promise<[LoadResult, LoadResult]> {
  if (WARMUP_SECONDS > 0) {
    await a.slice(WARMUP_SECONDS, WARMUP_OFFSET);
    await b.slice(WARMUP_SECONDS, WARMUP_OFFSET);
  }
  const count = Math.max(1, Math.round(LOAD_SECONDS / SLICE_SECONDS));
  const seconds = LOAD_SECONDS / count;
  const sides = [
    { load: a, slices: [] as Slice[], offset: 0 },
    { load: b, slices: [] as Slice[], offset: 0 },
  ];
  for (let k = 0; k < count; k++) {
    for (const side of k % 2 === 0 ? sides : [...sides].reverse()) {
      const s = await side.load.slice(seconds, side.offset);
      side.offset += s.sent;
      side.slices.push(s);
    }
  }
  return [total(a.name, sides[0].slices), total(b.name, sides[1].slices)];
}
