import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { serveHostWindows } from './rate-limit/host-windows';

/** A worker that dies after it served is replaced after this long (not at once: a crash loop would spin). */
const RESTART_DELAY_MS = 1000;

/**
 * The primary of Node's cluster (WORKERS > 1): forks `workers` copies of this program, which share the HTTP port
 * (the primary hands out connections), each with its own share of the pool and its own caches. It serves no
 * request itself, but holds the host's rate-limit windows, which every worker counts on (without REDIS_URL, and
 * while Redis is away).
 * - A worker that exits before it listened failed at start-up (configuration, keys, database): restarting would
 *   fail the same way, so the primary stops the others and exits with that worker's code.
 * - A worker that dies after it listened is replaced.
 * - SIGTERM or SIGINT is passed to every worker, which drains as a single process does; the primary exits when
 *   the last has, with the first non-zero code among them.
 */
export function runPrimary(workers: number, log: Logger): void {
  const listening = new WeakSet<Worker>();
  let stopping = false;
  let exitCode = 0;

  const fork = () => {
    const worker = cluster.fork();
    worker.once('listening', () => listening.add(worker));
  };
  const living = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const worker of living()) worker.process.kill(signal);
  };

  cluster.on('exit', (worker, code, signal) => {
    const how = signal ?? `code ${code}`;
    if (exitCode === 0 && code !== 0 && code !== null) exitCode = code;
    if (stopping) {
      if (living().length === 0) process.exit(exitCode);
      return;
    }
    if (!listening.has(worker)) {
      log.fatal(`worker ${worker.process.pid} failed to start (${how}); stopping`);
      if (exitCode === 0) exitCode = 1;
      stop('SIGTERM');
      if (living().length === 0) process.exit(exitCode);
      return;
    }
    log.error(`worker ${worker.process.pid} exited (${how}); starting another`);
    setTimeout(() => stopping || fork(), RESTART_DELAY_MS);
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal));

  serveHostWindows();
  log.info(`starting ${workers} worker processes`);
  for (let i = 0; i < workers; i++) fork();
}
