/**
 * npm run bench:export — GET /subnames/export of 100,000 names, and how much the service's memory grows.
 *
 * 1. Creates the database `sns_export_bench` on the DATABASE_URL server (dropped first), starts the built
 *    service on it (migrations run at start-up) and seeds BENCH_EXPORT_ROWS subnames (100,000) under oak.eth,
 *    at depths 1 to 3, each with texts, two addresses, metadata, owner, contenthash and ttl, by SQL.
 * 2. Exports them twice over HTTP: once read as fast as this process can, once by a slow reader (a pause
 *    after every 256 KB), which only backpressure keeps from piling the export up in the service. Both with
 *    the service's default heap, then again with its old space capped at 128 MB (as a container might run it),
 *    which shows what the export holds rather than what V8 has not yet bothered to collect.
 *    During each, the service's resident memory (VmRSS from /proc, or process_resident_memory_bytes from
 *    /metrics elsewhere) is sampled every 20 ms; the growth is the peak minus the figure just before.
 * 3. Checks that every name arrived exactly once, in order, and prints lines/s, MB/s and the memory figures.
 *
 * Not a test: nothing fails on a figure. Environment: DATABASE_URL (required), BENCH_EXPORT_ROWS.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { freePort } from '../test/support/service-process';

const DB_NAME = 'sns_export_bench';
const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
const ADMIN = 'bench-admin-token-0123456789';
const ROOT = join(__dirname, '..');
const MB = 1024 * 1024;

const say = (msg: string) => process.stderr.write(`${msg}\n`);

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function recreateDatabase(base: string): Promise<string> {
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  await admin.end();
  return withDatabase(base, DB_NAME);
}

/** Names g under oak.eth: n<g>.oak.eth, n<g>.t<g%10>.oak.eth or n<g>.x<g%7>.t<g%10>.oak.eth. */
async function seed(url: string): Promise<void> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const t0 = performance.now();
    await db.query(
      `INSERT INTO subnames (full_name, parent_name, label, namehash, texts, addresses, metadata, owner, contenthash, ttl)
       SELECT 'n' || g || '.' || p.parent, p.parent, 'n' || g,
              '0x' || md5('a' || g) || md5('b' || g),
              jsonb_build_object('url', 'https://n' || g || '.example', 'com.github', 'n' || g,
                                 'description', repeat('x', 100)),
              jsonb_build_object('60', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
                                 '0', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'),
              jsonb_build_object('tier', 'gold', 'batch', 'b' || (g % 100)),
              '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
              'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4',
              3600
         FROM generate_series(1, $1::int) AS g,
              LATERAL (SELECT CASE g % 3 WHEN 0 THEN 'oak.eth'
                                         WHEN 1 THEN 't' || (g % 10) || '.oak.eth'
                                         ELSE 'x' || (g % 7) || '.t' || (g % 10) || '.oak.eth' END AS parent) AS p`,
      [ROWS],
    );
    await db.query('VACUUM (ANALYZE) subnames');
    say(`seeded ${ROWS.toLocaleString('en')} subnames (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  } finally {
    await db.end();
  }
}

async function startService(
  url: string,
  dataDir: string,
  nodeFlags: string[] = [],
): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeFlags, join(ROOT, 'dist', 'main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_KEY: '100000000',
      RATE_LIMIT_PER_IP: '100000000',
      MINT_MAINNET_SIGNER_KEY: '0x' + '11'.repeat(32),
      MINT_TESTNET_SIGNER_KEY: '0x' + '22'.repeat(32),
      CCIP_SIGNER_KEY: '0x' + '33'.repeat(32),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error('service exited during start-up');
    try {
      if ((await fetch(`${base}/health/ready`)).ok) return { base, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('service did not start');
}

/** The service's resident memory in bytes. */
async function rss(child: ChildProcess, base: string): Promise<number> {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status);
    if (kb) return Number(kb[1]) * 1024;
  } catch {
    // not Linux: ask the service
  }
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^process_resident_memory_bytes (\d+)/m.exec(text)?.[1] ?? NaN);
}

interface ExportRun {
  lines: number;
  distinct: number;
  ordered: boolean;
  bytes: number;
  seconds: number;
  before: number;
  peak: number;
}

/** Reads the export; `pauseMs` after every 256 KB makes a slow client. */
async function exportOnce(base: string, key: string, child: ChildProcess, pauseMs: number): Promise<ExportRun> {
  const before = await rss(child, base);
  let peak = before;
  const sampler = setInterval(() => {
    void rss(child, base).then((v) => (peak = Math.max(peak, v)));
  }, 20);
  const t0 = performance.now();
  const names = new Set<string>();
  let lines = 0;
  let bytes = 0;
  let ordered = true;
  let previous = '';
  let rest = '';
  let sinceLastPause = 0;
  await new Promise<void>((resolve, reject) => {
    get(`${base}/api/v1/subnames/export?parentName=oak.eth`, { headers: { 'x-auth-token': key } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`export answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        bytes += Buffer.byteLength(chunk);
        const parts = (rest + chunk).split('\n');
        rest = parts.pop()!;
        for (const line of parts) {
          const { label, parentName } = JSON.parse(line) as { label: string; parentName: string };
          const reversed = [...`${label}.${parentName}`].reverse().join('');
          if (reversed <= previous) ordered = false;
          previous = reversed;
          names.add(reversed);
          lines++;
        }
        sinceLastPause += Buffer.byteLength(chunk);
        if (pauseMs > 0 && sinceLastPause >= 256 * 1024) {
          sinceLastPause = 0;
          res.pause();
          setTimeout(() => res.resume(), pauseMs);
        }
      });
      res.on('end', () => resolve());
      res.on('error', reject);
    }).on('error', reject);
  });
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, await rss(child, base));
  return { lines, distinct: names.size, ordered, bytes, seconds, before, peak };
}

function report(name: string, r: ExportRun): void {
  console.log(
    `${name.padEnd(40)} ${r.lines.toLocaleString('en').padStart(9)} lines  ${(r.bytes / MB).toFixed(1).padStart(6)} MB  ` +
      `${r.seconds.toFixed(1).padStart(6)} s  ${Math.round(r.lines / r.seconds)
        .toLocaleString('en')
        .padStart(7)} lines/s  ` +
      `${(r.bytes / MB / r.seconds).toFixed(1).padStart(5)} MB/s  RSS ${(r.before / MB).toFixed(0)} → peak ` +
      `${(r.peak / MB).toFixed(0)} MB (growth ${((r.peak - r.before) / MB).toFixed(1)} MB)` +
      `${r.lines === ROWS && r.distinct === ROWS && r.ordered ? '' : '  INCOMPLETE OR OUT OF ORDER'}`,
  );
}

/** The service's own heap settings, then an old space capped as a container would cap it. */
const CONFIGS: { name: string; flags: string[] }[] = [
  { name: 'default heap', flags: [] },
  { name: '--max-old-space-size=128', flags: ['--max-old-space-size=128'] },
];

async function main(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('bench:export needs DATABASE_URL (a PostgreSQL server where it may create a database)');
  const url = await recreateDatabase(base);
  const dataDir = mkdtempSync(join(tmpdir(), 'sns-export-bench-'));
  const results: [string, ExportRun][] = [];
  let key = '';
  try {
    for (const [i, config] of CONFIGS.entries()) {
      const { base: service, child } = await startService(url, dataDir, config.flags);
      try {
        if (i === 0) {
          await seed(url);
          const issued = await fetch(`${service}/api/v1/admin/api-keys`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN },
            body: JSON.stringify({ name: 'bench', parentNames: ['oak.eth'] }),
          });
          key = ((await issued.json()) as { key: string }).key;
        }
        // Warm-up: the code paths compiled and the pool open, so the figures below are the export's own.
        await exportOnce(service, key, child, 0);
        say(`${config.name}: exporting at full speed, then with a slow reader (20 ms pause per 256 KB)`);
        results.push([`${config.name}, full speed`, await exportOnce(service, key, child, 0)]);
        results.push([`${config.name}, slow reader`, await exportOnce(service, key, child, 20)]);
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    }
    console.log('');
    for (const [name, run] of results) report(name, run);
    console.log(
      '\nGrowth is the service process resident set during the export over its size just before it. The export' +
        '\nholds one page (1,000 rows) and what the socket has not yet taken; with room to spare V8 collects the' +
        '\nrest late, so the default heap shows garbage not yet collected, and a capped old space shows what is held.',
    );
  } finally {
    const admin = new Client({ connectionString: base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
