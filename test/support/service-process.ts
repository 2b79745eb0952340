import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './free-port';
import { ON_POSTGRES } from './postgres-only';
import { logChild } from './suite-log';
import { testEnv } from './test-app';

export { freePort };

/**
 * Replicas sized for a burst: waiting for a pooled connection must not time out the test's own burst. The embedded
 * database is one session, so there each replica keeps one pooled connection, as the service does on it: the burst
 * queues in the pool (which waits), not behind twenty connections at the session (where the query timer runs).
 */
export const BURST_REPLICA_ENV = {
  DATABASE_POOL_SIZE: ON_POSTGRES ? '10' : '1',
  DATABASE_CONNECT_TIMEOUT_MS: '60000',
};

export interface ServiceProcess {
  url: string;
  port: number;
  child: ChildProcess;
  output(): string;
  /** Waits until the output holds `text` (log lines reach standard output in batches, within 100 ms). */
  outputContaining(text: string, timeoutMs?: number): Promise<string>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs the built service (dist/main.js) as its own process, as a replica would run. */
export async function startServiceProcess(env: Record<string, string | undefined> = {}): Promise<ServiceProcess> {
  const port = await freePort();
  const child = logChild(
    'service',
    spawn(process.execPath, [join(__dirname, '..', '..', 'dist', 'main.js')], {
      env: { ...process.env, ...testEnv({ PORT: String(port), ...env }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${out}`);
    try {
      const res = await fetch(`${url}/health/ready`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service did not start within 30 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    child,
    output: () => out,
    // Resolves on the output chunk that completes `text` (or at the timeout), not on a polling tick.
    outputContaining: (text: string, timeoutMs = 3_000) =>
      new Promise<string>((resolve) => {
        if (out.includes(text)) return resolve(out);
        const done = () => {
          clearTimeout(timer);
          child.stdout?.off('data', check);
          child.stderr?.off('data', check);
          resolve(out);
        };
        // The listeners added at spawn run first, so `out` already holds the chunk.
        const check = () => out.includes(text) && done();
        const timer = setTimeout(done, timeoutMs);
        child.stdout?.on('data', check);
        child.stderr?.on('data', check);
      }),
    stop: (signal: NodeJS.Signals = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  };
}
