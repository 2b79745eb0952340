/**
 * npm run bench: the hot paths of a real service process beside reference limits measured in the same run, on the
 * same machine, with the same load generator (autocannon, BENCH_CONNECTIONS in flight, BENCH_SECONDS a workload):
 *   - the bare Express echo (bench/express-echo.ts, its own process beside the service's): the most a route on
 *     Express can reach here;
 *   - the service's write (subname insert + exact quota charge in one transaction) sent straight to PostgreSQL
 *     with `pg`, BENCH_CONNECTIONS transactions in flight over a pool as large as the service's: the most a create
 *     can reach;
 * each measured paired with the figure it is the reference of: alternating slices of BENCH_SLICE_SECONDS (A B B A…),
 * BENCH_SECONDS of each in all, so that a ratio compares two figures taken under the same machine (bench/load.ts);
 *   - signatures per second of ethers and of the service's signer, on one core.
 * The service runs as production runs it (NODE_ENV=production, request logs at info to a file), three times:
 * alone, with REDIS_URL (rate limits shared through Redis), and with WORKERS=2 (Node's cluster, both cores).
 * Each run gets a fresh PostgreSQL database from DATABASE_URL (default: the local server), dropped afterwards.
 * BENCH_RUNS=single,redis,cluster picks the runs (default: all three); BENCH_SERVICE=<path of a dist/main.js>
 * measures another build (an older commit's, for a before/after in one session).
 * Prints progress on stderr, the tables on stdout, and writes bench/results.json. Never part of `npm test`;
 * nothing here fails on a slow figure.
 */
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { namehash } from 'ethers';
import { Pool } from 'pg';
import { freePort } from '../test/support/service-process';
import {
  httpLoad,
  Load,
  LOAD_CONNECTIONS,
  LOAD_SECONDS,
  LoadResult,
  measureLoad,
  measurePaired,
  SLICE_SECONDS,
  withCpu,
  Workload,
} from './load';
import {
  ADMIN,
  ccipAddrPath,
  ccipNamePath,
  choosePrimaryNames,
  ETH,
  freshDatabase,
  LISTING,
  mintRequest,
  processPeaksMb,
  processTreeCpuMs,
  processTreeMb,
  SERVICE_MAIN,
  startService,
} from './service';
import { AbuseRow, measureAbuse, printAbuse } from './abuse';
import { measureSigning, printSigning, SigningRate } from './signing';

const BATCH_SIZE = 100;
/** One key sends the batches: one in flight at a time, as BATCHES_IN_FLIGHT_PER_KEY allows by default. */
const BATCH_CONNECTIONS = 1;
const SEARCH_PARENT_NAMES = 2000;
/**
 * Distinct stored names the read and resolution workloads cycle through (of those the creates made): half the
 * subname cache (10,000 entries), so that the figures are of reads of names in use whatever the create rate was.
 * A cycle longer than the cache is LRU's worst case, every read a database round trip (bench/RESULTS.md says what it
 * costs).
 */
const READ_NAMES = 5000;
/** Addresses that choose a primary name for the name() workload (each a subname and a signed choice). */
const PRIMARY_NAMES = 500;
const POOL_SIZE = 10; // the service's DATABASE_POOL_SIZE default
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const RESULTS = process.env.BENCH_RESULTS ?? join(__dirname, 'results.json');

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: __dirname, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

interface Row extends LoadResult {
  /** What the ratio is against. */
  reference?: string;
  /** The reference's figures from the slices this row was measured paired with. */
  pairedWith?: LoadResult;
  ratio?: number;
  target?: number;
}

interface Run {
  name: string;
  env: Record<string, string>;
  rows: Row[];
  /** All processes together (a cluster's primary and workers). */
  peakRssMb: number;
  /** The largest single process: what the 250 MB target is about. */
  largestProcessMb: number;
  namesPerSecond?: { single: number; batch: number; ratio: number };
  /** Liveness at rest and under the worst bodies (bench/abuse.ts); BENCH_ABUSE=0 leaves it out. */
  abuse?: AbuseRow[];
}

let step = 0;
function progress(message: string): void {
  console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

/** The service process under load, whose resident memory `load` samples. */
let servicePid: number | undefined;

/** Runs `work` while sampling the service's resident memory; returns its result and the largest RSS seen, in MB. */
async function withRssSampled<T>(work: () => Promise<T>): Promise<[T, number]> {
  let rssMb = 0;
  const sampler = setInterval(() => {
    if (servicePid !== undefined) rssMb = Math.max(rssMb, processTreeMb(servicePid, 'VmRSS'));
  }, 200);
  const result = await work().finally(() => clearInterval(sampler));
  return [result, rssMb];
}

/** A workload of the running service, its slices recording the service's CPU time. */
function serviceLoad(w: Workload): Load {
  return withCpu(httpLoad(w), () => processTreeCpuMs(servicePid!));
}

/** A result's figures for a progress line. */
function figures(r: LoadResult): string {
  return (
    `${r.throughput.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms` +
    (r.cpuUsPerRequest !== undefined ? `, ${r.cpuUsPerRequest.toFixed(0)} µs CPU/request` : '') +
    (r.errors ? `, ${r.errors} ERRORS` : '')
  );
}

/** Measures one service workload and says so on stderr before and after, with the service's largest RSS meanwhile. */
async function load(w: Workload): Promise<LoadResult & { rssMb: number }> {
  step += 1;
  progress(`${step}. ${w.name}: ${LOAD_SECONDS} s…`);
  const [r, rssMb] = await withRssSampled(() => measureLoad(serviceLoad(w)));
  progress(`   ${figures(r)}, service RSS up to ${rssMb.toFixed(0)} MB`);
  return { ...r, rssMb };
}

/** Measures a service workload paired with its reference (alternating slices) into a row with their ratio. */
async function paired(w: Workload, reference: Load, target: number): Promise<Row> {
  step += 1;
  progress(
    `${step}. ${w.name}, paired with ${reference.name}: ${LOAD_SECONDS} s of each in ${SLICE_SECONDS} s slices…`,
  );
  const [[r, ref], rssMb] = await withRssSampled(() => measurePaired(serviceLoad(w), reference));
  const ratio = r.throughput / ref.throughput;
  progress(
    `   ${figures(r)}, service RSS up to ${rssMb.toFixed(0)} MB; reference ${figures(ref)}; ratio ${ratio.toFixed(2)}`,
  );
  return { ...r, rssMb, reference: ref.name, pairedWith: ref, ratio, target } as Row;
}

async function expressEcho(): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = fork(join(__dirname, 'express-echo.ts'), [], {
    env: { ...process.env, PORT: String(port) },
    execArgv: ['-r', 'ts-node/register/transpile-only'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`express echo exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () =>
      new Promise((r) => {
        child.removeAllListeners('exit');
        child.once('exit', () => r());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The service's write, straight to PostgreSQL: the most a create route can reach here. A `Load` over its own
 * pool (as large as the service's) and API key; `close` removes what it wrote.
 */
async function pgReference(dbUrl: string): Promise<Load & { close: () => Promise<void> }> {
  const pool = new Pool({ connectionString: dbUrl, max: POOL_SIZE });
  const { rows } = await pool.query(
    `INSERT INTO api_keys (name, key_hash, key_prefix, parent_names)
     VALUES ('pg-reference', 'pg-reference-hash', 'pgref', '{ref.eth}') RETURNING id`,
  );
  const keyId = rows[0].id as string;
  await pool.query('INSERT INTO key_quotas (api_key_id, quota_limit, used) VALUES ($1, 2000000000, 0)', [keyId]);
  const transaction = async (i: number) => {
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      const charged = await c.query(
        'UPDATE key_quotas SET used = used + 1 WHERE api_key_id = $1 AND used < quota_limit RETURNING used',
        [keyId],
      );
      if (charged.rowCount !== 1) throw new Error('quota refused');
      await c.query(
        `INSERT INTO subnames (full_name, parent_name, label, namehash, created_by, texts, addresses, owner)
         VALUES ($1, 'ref.eth', $2, $3, $4, $5::jsonb, $6::jsonb, $7)`,
        [
          `r${i}.ref.eth`,
          `r${i}`,
          namehash(`r${i}.ref.eth`),
          keyId,
          JSON.stringify({ url: `https://r${i}.example` }),
          JSON.stringify({ 60: ETH }),
          ETH,
        ],
      );
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK');
      throw e;
    } finally {
      c.release();
    }
  };
  return {
    name: 'reference: insert + quota charge, one transaction via pg',
    slice: async (seconds, offset) => {
      const latencies: number[] = [];
      let next = offset;
      let errors = 0;
      const end = performance.now() + seconds * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: LOAD_CONNECTIONS }, async () => {
          while (performance.now() < end) {
            const t0 = performance.now();
            await transaction(next++).catch(() => errors++);
            latencies.push(performance.now() - t0);
          }
        }),
      );
      return { sent: next - offset, seconds: (performance.now() - started) / 1000, latencies, errors, statuses: {} };
    },
    close: async () => {
      await pool.query(`DELETE FROM subnames WHERE parent_name = 'ref.eth'`);
      await pool.query('DELETE FROM api_keys WHERE id = $1', [keyId]);
      await pool.end();
    },
  };
}

/** The bare Express echo's two references: GET answers its path, POST its JSON body (a mint request's here). */
function echoLoads(url: string, pid: number): { get: Load; post: Load } {
  const cpu = () => processTreeCpuMs(pid);
  return {
    get: withCpu(
      httpLoad({
        name: 'reference: bare Express echo (GET)',
        url,
        next: (i) => ({ path: `/api/v1/subnames/c${i}.oak.eth` }),
      }),
      cpu,
    ),
    post: withCpu(
      httpLoad({
        name: 'reference: bare Express echo (POST)',
        url,
        method: 'POST',
        next: mintRequest,
      }),
      cpu,
    ),
  };
}

async function serviceRun(name: string, env: Record<string, string>): Promise<Run> {
  const echoServer = await expressEcho();
  const echo = echoLoads(echoServer.url, echoServer.pid);
  progress(
    `service ${name} (${
      Object.entries(env)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ') || 'defaults'
    })`,
  );
  const db = await freshDatabase();
  // The pg reference writes to a database of its own, migrated as the service's is, so that the service hears
  // none of its change notifications while it runs.
  const refDb = await freshDatabase();
  execFileSync(process.execPath, [join(dirname(SERVICE_MAIN), 'database', 'migrate-cli.js')], {
    env: { ...process.env, DATABASE_URL: refDb.url, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pgRef = await pgReference(refDb.url);
  const dir = mkdtempSync(join(tmpdir(), 'sns-bench-'));
  const { url, child } = await startService(env, db.url, dir);
  servicePid = child.pid;
  const rows: Row[] = [];
  let namesPerSecond: Run['namesPerSecond'];
  let peaks: number[] = [];
  let abuse: AbuseRow[] | undefined;
  try {
    const issued = await fetch(`${url}/api/v1/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN },
      body: JSON.stringify({ name: 'bench', parentNames: ['oak.eth', 'pine.eth'], quota: 2_000_000_000 }),
    });
    const { key } = (await issued.json()) as { key: string };
    const keyed = { 'x-auth-token': key };
    const createBody = (label: string) =>
      JSON.stringify({
        parentName: 'oak.eth',
        label,
        texts: [{ key: 'url', value: `https://${label}.example` }],
        addresses: [{ coin: 60, value: ETH }],
        owner: ETH,
      });
    const create = await paired(
      {
        name: 'POST /subnames (create)',
        url,
        method: 'POST',
        headers: keyed,
        next: (i) => ({ path: '/api/v1/subnames', body: createBody(`c${i}`) }),
      },
      pgRef,
      0.6,
    );
    rows.push(create);
    const created = Math.max(1, Math.min(create.requests, 20_000));

    const batch = await load({
      name: `POST /subnames/batch (${BATCH_SIZE} creates)`,
      url,
      method: 'POST',
      headers: keyed,
      connections: BATCH_CONNECTIONS,
      next: (i) => ({
        path: '/api/v1/subnames/batch',
        body: JSON.stringify({
          items: Array.from({ length: BATCH_SIZE }, (_, k) => JSON.parse(createBody(`b${i}-${k}`)) as unknown),
        }),
      }),
    });
    namesPerSecond = {
      single: create.throughput,
      batch: batch.throughput * BATCH_SIZE,
      ratio: (batch.throughput * BATCH_SIZE) / create.throughput,
    };
    rows.push({ ...batch, reference: 'names/s of single creates', ratio: namesPerSecond.ratio, target: 10 });

    rows.push(
      await load({
        name: 'POST /subnames (update)',
        url,
        method: 'POST',
        headers: keyed,
        next: (i) => ({ path: '/api/v1/subnames', body: createBody(`c${i % created}`) }),
      }),
    );

    rows.push(
      await paired(
        {
          name: 'GET /subnames/{fullName}',
          url,
          next: (i) => ({ path: `/api/v1/subnames/c${i % Math.min(created, READ_NAMES)}.oak.eth` }),
        },
        echo.get,
        0.6,
      ),
    );

    // What a wallet's CCIP-Read fetch sends: resolve(name, addr(node)) of a stored name, answered and signed.
    const paths = Array.from({ length: Math.min(created, READ_NAMES) }, (_, i) => ccipAddrPath(`c${i}.oak.eth`));
    rows.push(
      await paired(
        { name: 'GET /ccip-read (addr of a stored name)', url, next: (i) => ({ path: paths[i % paths.length] }) },
        echo.get,
        0.5,
      ),
    );

    // What a wallet's primary-name lookup sends: resolve(<address>.addr.reverse, name(node)) of an address that
    // chose a name, answered only after the name's own coin-60 address is checked (two cached reads), and signed.
    const chosen = await choosePrimaryNames(url, key, PRIMARY_NAMES);
    const namePaths = chosen.map(ccipNamePath);
    rows.push(
      await paired(
        {
          name: 'GET /ccip-read (name of an address with a primary name)',
          url,
          next: (i) => ({ path: namePaths[i % namePaths.length] }),
        },
        echo.get,
        0.5,
      ),
    );

    // Search lists a parent of its own with a fixed 2,000 names (oak.eth holds as many as the writes above made).
    for (let b = 0; b < SEARCH_PARENT_NAMES / BATCH_SIZE; b++) {
      const seeded = await fetch(`${url}/api/v1/subnames/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...keyed },
        body: JSON.stringify({
          items: Array.from({ length: BATCH_SIZE }, (_, k) => ({ parentName: 'pine.eth', label: `s${b}-${k}` })),
        }),
      });
      if (!seeded.ok) throw new Error(`seeding pine.eth answered ${seeded.status}`);
    }
    rows.push(
      await load({
        name: `POST /subnames/search (one parent of ${SEARCH_PARENT_NAMES}, pages 1-20)`,
        url,
        method: 'POST',
        next: (i) => ({
          path: '/api/v1/subnames/search',
          body: JSON.stringify({ parentName: 'pine.eth', page: 1 + (i % 20), size: 25 }),
        }),
      }),
    );

    const listing = await fetch(`${url}/api/v1/admin/listings/mainnet/oak.eth`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN },
      body: JSON.stringify(LISTING),
    });
    if (!listing.ok) throw new Error(`listing PUT answered ${listing.status}`);
    rows.push(
      await paired(
        {
          name: 'POST /mint (signed)',
          url,
          method: 'POST',
          next: mintRequest,
        },
        echo.post,
        0.5,
      ),
    );
    if (process.env.BENCH_ABUSE !== '0') {
      progress(`service ${name}: liveness under abuse`);
      abuse = await measureAbuse(url, key, child.pid!);
    }
  } finally {
    peaks = processPeaksMb(child.pid!);
    const peak = peaks.reduce((a, b) => a + b, 0);
    servicePid = undefined;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await db.drop();
    await pgRef.close();
    await refDb.drop();
    await echoServer.stop();
    rmSync(dir, { recursive: true, force: true });
    progress(
      `service ${name}: peak resident memory ${peak.toFixed(0)} MB` +
        (peaks.length > 1 ? ` (processes: ${peaks.map((p) => p.toFixed(0)).join(', ')} MB)` : ''),
    );
  }
  return {
    name,
    env,
    rows,
    peakRssMb: peaks.reduce((a, b) => a + b, 0),
    largestProcessMb: Math.max(...peaks),
    namesPerSecond,
    abuse,
  };
}

/** A run's table: each paired row right below its reference, measured in the same slices. */
function printRun(run: Run): void {
  const header = ['workload', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'CPU µs/req', '× reference', 'target'];
  const figures = (r: LoadResult, name = r.name) => [
    name,
    r.throughput.toFixed(0),
    String(r.p50),
    String(r.p99),
    String(r.errors),
    r.cpuUsPerRequest === undefined ? '' : r.cpuUsPerRequest.toFixed(0),
  ];
  const lines = run.rows.flatMap((r) => [
    ...(r.pairedWith ? [[...figures(r.pairedWith, `${r.pairedWith.name}, paired:`), '', '']] : []),
    [
      ...figures(r),
      r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}`,
      r.target === undefined ? '' : `≥ ${r.target} ${r.ratio! >= r.target ? 'met' : 'MISSED'}`,
    ],
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(`\n### service: ${run.name}\n`);
  console.log(fmt(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const l of lines) console.log(fmt(l));
  const split =
    run.peakRssMb !== run.largestProcessMb ? `, ${run.largestProcessMb.toFixed(0)} MB the largest process` : '';
  console.log(
    `\npeak resident memory of the service: ${run.peakRssMb.toFixed(0)} MB${split} (target ≤ 250 MB per process: ` +
      `${run.largestProcessMb <= 250 ? 'met' : 'MISSED'})`,
  );
  if (run.namesPerSecond) {
    console.log(
      `names created per second: single ${run.namesPerSecond.single.toFixed(0)}, batches of ${BATCH_SIZE} ` +
        `${run.namesPerSecond.batch.toFixed(0)} (${run.namesPerSecond.ratio.toFixed(1)}×)`,
    );
  }
  if (run.abuse) printAbuse(run.abuse);
}

async function main(): Promise<void> {
  progress(
    `${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ` +
      `${LOAD_CONNECTIONS} connections, ${LOAD_SECONDS} s per workload after a warm-up ` +
      `(paired ones in ${SLICE_SECONDS} s slices)`,
  );
  step += 1;
  progress(`${step}. signing rates, one core`);
  const signing: SigningRate[] = measureSigning();

  const runs: Run[] = [];
  const only = process.env.BENCH_RUNS?.split(',');
  const configs: [string, string, Record<string, string>][] = [
    ['single', 'one process', { WORKERS: '1' }],
    ['redis', 'one process, REDIS_URL set', { WORKERS: '1', REDIS_URL }],
    ['cluster', 'WORKERS=2 (cluster)', { WORKERS: '2' }],
  ];
  for (const [key, name, env] of configs) {
    if (only && !only.includes(key)) continue;
    runs.push(await serviceRun(name, env));
  }

  console.log('\n### signing, one core\n');
  printSigning(signing);
  for (const run of runs) printRun(run);
  writeFileSync(
    RESULTS,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        service: process.env.BENCH_SERVICE ?? `this checkout (${commit()})`,
        machine: { cores: cpus().length, model: cpus()[0]?.model, node: process.version },
        load: {
          generator: 'autocannon',
          connections: LOAD_CONNECTIONS,
          seconds: LOAD_SECONDS,
          pairedSliceSeconds: SLICE_SECONDS,
        },
        signing,
        runs,
      },
      null,
      2,
    ) + '\n',
  );
  progress(`written ${RESULTS}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
