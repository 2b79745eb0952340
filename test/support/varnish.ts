import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './service-process';
import { logChild } from './suite-log';

export const VARNISHD = '/usr/sbin/varnishd';
const VARNISHSTAT = '/usr/bin/varnishstat';

/** A varnishd running the shipped VCL (deploy/varnish/default.vcl) in front of a service on loopback. */
export interface Varnish {
  url: string;
  port: number;
  child: ChildProcess;
  /** varnishstat's counters by name (MAIN.cache_hit, MAIN.backend_req, MAIN.bans_added…). */
  counters(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/**
 * Starts varnishd with the shipped VCL pointed at `backendPort`, on `port` (or a free one: pass it when the service
 * must know it before, as CACHE_PURGE_URL), and waits until it passes a request through to a healthy backend.
 */
export async function startVarnish(backendPort: number, port?: number): Promise<Varnish> {
  if (!existsSync(VARNISHD)) throw new Error(`${VARNISHD} is missing: apt-get install varnish (.ci/run does)`);
  const listen = port ?? (await freePort());
  const workDir = mkdtempSync(join(tmpdir(), 'varnish-'));
  const vcl = readFileSync(join(__dirname, '../../deploy/varnish/default.vcl'), 'utf8')
    .replace('.host = "api";', '.host = "127.0.0.1";')
    .replace('.port = "3000";', `.port = "${backendPort}";`);
  writeFileSync(join(workDir, 'default.vcl'), vcl);
  const args = ['-F', '-j', 'none', '-a', `127.0.0.1:${listen}`, '-f', join(workDir, 'default.vcl')];
  const child = logChild(
    'varnishd',
    spawn(VARNISHD, [...args, '-n', workDir, '-s', 'malloc,32m'], { stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  const url = `http://127.0.0.1:${listen}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(workDir, { recursive: true, force: true });
  };
  // A passed request answers 200 only once varnishd listens and its probe has found the backend healthy.
  const deadline = Date.now() + 30_000;
  while (
    !(await fetch(`${url}/health/live`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`varnishd did not pass requests to port ${backendPort} within 30 s`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port: listen,
    child,
    counters: async () => {
      const { stdout } = await promisify(execFile)(VARNISHSTAT, ['-n', workDir, '-1', '-j']);
      const parsed = JSON.parse(stdout) as { counters: Record<string, { value: number }> };
      return Object.fromEntries(Object.entries(parsed.counters).map(([k, v]) => [k, v.value]));
    },
    stop,
  };
}
