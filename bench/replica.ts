/**
 * `npm run bench:replica`: public reads with a PostgreSQL standby (DATABASE_READ_URL) beside the same reads on the
 * primary alone, paired: a throwaway primary and a streaming standby (`pg_basebackup -R`) on loopback, one service
 * on each setting. Reads alone, then reads while a writer changes a name every 20 ms (each change sends reads to the
 * primary until the standby has replayed it). Prints req/s, p50, p99 and the share the standby answered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandbyCluster } from '../test/support/standby-cluster';
import { httpLoad, LoadResult, measurePaired } from './load';
import { ADMIN, startService } from './service';

const NAMES = 2000;
const BATCH = 100;
// The seeding and the writer's creation, past the default quota of 2,000.
const QUOTA = { SUBNAME_QUOTA_DEFAULT: '100000' };

async function issueKey(url: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/admin/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN },
    body: JSON.stringify({ name: 'bench', parentNames: ['oak.eth'] }),
  });
  return ((await res.json()) as { key: string }).key;
}

async function reads(url: string): Promise<{ primary: number; replica: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const count = (target: string) =>
    Number(new RegExp(`^db_reads_total\\{target="${target}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { primary: count('primary'), replica: count('replica') };
}

/** Writes one name every 20 ms until stopped. */
function writer(url: string, key: string): () => Promise<number> {
  let running = true;
  let writes = 0;
  const done = (async () => {
    while (running) {
      const res = await fetch(`${url}/api/v1/subnames`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-token': key },
        body: JSON.stringify({
          parentName: 'oak.eth',
          label: 'busy',
          texts: [{ key: 'url', value: `https://example.com/${writes}` }],
        }),
      });
      if (!res.ok) throw new Error(`a write answered ${res.status}: ${await res.text()}`);
      writes++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  // Handled here, so that a failed write ends the bench through main's cleanup rather than an unhandled rejection.
  const outcome = done.then(
    () => null,
    (e: unknown) => e,
  );
  return async () => {
    running = false;
    const failed = await outcome;
    if (failed) throw failed;
    return writes;
  };
}

function row(r: LoadResult, share: string): string {
  return `${r.name.padEnd(44)} ${r.throughput.toFixed(0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors}  standby share ${share}`;
}

async function main(): Promise<void> {
  const cluster = await startStandbyCluster();
  const dir = mkdtempSync(join(tmpdir(), 'bench-replica-'));
  const services: { child: { kill(): boolean } }[] = [];
  try {
    const withStandby = await startService(
      { ...QUOTA, DATABASE_READ_URL: cluster.standbyUrl },
      cluster.primaryUrl,
      dir,
    );
    services.push(withStandby);
    const primaryOnly = await startService(QUOTA, cluster.primaryUrl, dir);
    services.push(primaryOnly);
    const key = await issueKey(withStandby.url);
    for (let b = 0; b < NAMES / BATCH; b++) {
      const items = Array.from({ length: BATCH }, (_, k) => ({ parentName: 'oak.eth', label: `n${b}-${k}` }));
      const res = await fetch(`${withStandby.url}/api/v1/subnames/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-token': key },
        body: JSON.stringify({ items }),
      });
      if (!res.ok) throw new Error(`seeding answered ${res.status}`);
    }
    const search = (name: string, url: string) =>
      httpLoad({ name, url, next: (i) => ({ path: `/api/v1/subnames?parentName=oak.eth&page=${(i % 20) + 1}` }) });
    for (const writing of [false, true]) {
      const label = writing ? 'while writing every 20 ms' : 'reads only';
      const stop = writing ? writer(withStandby.url, key) : undefined;
      const before = await reads(withStandby.url);
      const [a, b] = await measurePaired(
        search(`GET /subnames, standby (${label})`, withStandby.url),
        search(`GET /subnames, primary only (${label})`, primaryOnly.url),
      );
      const after = await reads(withStandby.url);
      const writes = stop ? await stop() : 0;
      const replica = after.replica - before.replica;
      const share = replica / (replica + after.primary - before.primary);
      console.log(row(a, `${(share * 100).toFixed(1)} %`) + (writing ? `  (${writes} writes)` : ''));
      console.log(row(b, '-'));
    }
  } finally {
    for (const s of services) s.child.kill();
    await new Promise((r) => setTimeout(r, 500));
    cluster.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
