import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { freePort } from './free-port';

/** The Redis of one e2e run, as globalSetup found or started it. */
export interface TestRedis {
  /** undefined when the machine has no redis-server and REDIS_URL is unset: the Redis specs are skipped. */
  url: string | undefined;
  /** Where it comes from, for the run's first line. */
  origin: string;
  stop(): Promise<void>;
}

/** Where `command -v` would find `name` on PATH, or undefined. */
function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** Whether a Redis on this loopback port answers PING with PONG. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.setTimeout(1_000, () => socket.destroy());
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d: Buffer) => {
      reply += d.toString();
      if (!reply.includes('\r\n')) return;
      socket.end();
      resolve(reply.startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}

/**
 * The run's Redis: REDIS_URL when set; otherwise the machine's redis-server started on a free loopback port without
 * persistence, and stopped by `stop`; otherwise none.
 */
export async function startTestRedis(): Promise<TestRedis> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, origin: 'REDIS_URL', stop: async () => undefined };
  const binary = onPath('redis-server');
  if (!binary) return { url: undefined, origin: 'none', stop: async () => undefined };
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  };
  const deadline = Date.now() + 10_000;
  while (!(await pong(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`${binary} did not answer PING on port ${port} within 10 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, origin: `${binary} on port ${port}, pid ${child.pid}`, stop };
}
