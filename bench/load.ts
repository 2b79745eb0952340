/**
 * The load generator of `npm run bench`: autocannon (raw keep-alive sockets, HDR histograms), closed loop with a
 * fixed number of connections, one request in flight on each. Every request can differ (a fresh label, a fresh
 * path) through `next(i)`; a warm-up run comes first (JIT, pools, caches) and is not counted.
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

export const LOAD_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
export const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);

function run(w: Workload, seconds: number, offset: number): Promise<autocannon.Result & { sent: number }> {
  let i = offset;
  const headers = { 'content-type': 'application/json', ...w.headers };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: w.url,
        connections: w.connections ?? LOAD_CONNECTIONS,
        pipelining: 1,
        duration: seconds,
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
      (err, result) => (err ? reject(err) : resolve(Object.assign(result, { sent: i - offset }))),
    );
  });
}

/** Warm up, then measure for LOAD_SECONDS. Request indexes of the warm-up lie past any measured run's. */
export async function measure(w: Workload): Promise<LoadResult> {
  if (WARMUP_SECONDS > 0) await run(w, WARMUP_SECONDS, 1e9);
  const r = await run(w, LOAD_SECONDS, 0);
  const statuses: Record<string, number> = {};
  for (const [code, { count = 0 } = {}] of Object.entries(r.statusCodeStats ?? {})) statuses[code] = count;
  const completed = r.requests.total;
  return {
    name: w.name,
    requests: completed,
    seconds: r.duration,
    throughput: completed / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors + r.timeouts,
    statuses,
  };
}
