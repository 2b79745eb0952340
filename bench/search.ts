/**
 * npm run bench:search — search, list and read at a million subnames.
 *
 * 1. Creates the database `sns_search_bench` on the DATABASE_URL server (dropped first; `--reuse` keeps a
 *    complete one from an earlier run), applies the migrations with `npm run migration:run`'s CLI.
 * 2. Seeds 1,000,000 subnames under 100 parents with INSERT … SELECT generate_series, in chunks, with the
 *    secondary indexes dropped during the load and rebuilt from their own definitions afterwards, then VACUUM
 *    ANALYZE (the state of a table that has lived a while). Progress goes to stderr.
 * 3. Starts the built service (dist/main.js) on that database and measures, one request at a time over
 *    HTTP, p50/p95/p99 of each filter kind and of GET /subnames/{fullName}, beside two reference limits taken
 *    in the same run: a trivial HTTP route of the same process, and `SELECT 1` over a direct connection.
 * 4. EXPLAIN (ANALYZE, BUFFERS) of exactly the SQL the service runs for each kind (the repository's
 *    buildSearchQuery), listing the indexes each plan uses.
 *
 * Not a test: nothing fails on a slow figure. Results also go to bench/.results/search-<time>.json.
 * Environment: DATABASE_URL (required), BENCH_ROWS (1000000), BENCH_REQUESTS per scenario (300).
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { SearchSubnamesDto } from '../src/subnames/dto/search-subnames.dto';
import { toSubnameFilter } from '../src/subnames/search-filter';
import { freePort } from '../test/support/service-process';
import { buildSearchQuery } from '../src/subnames/search-query';

// BENCH_DATABASE: another name, so that two checkouts on one server do not share (and drop) one database.
const DB_NAME = process.env.BENCH_DATABASE ?? 'sns_search_bench';
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const PARENTS = 100;
const OWNERS = 20_000;
const BATCHES = 5_000;
const CHUNK = 50_000;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const WARMUP = 30;
const ROOT = join(__dirname, '..');

// prettier-ignore
const ADJECTIVES = [
  'amber', 'bold', 'calm', 'dusty', 'eager', 'fancy', 'gentle', 'happy', 'icy', 'jolly', 'keen', 'lucky', 'merry',
  'noble', 'odd', 'proud', 'quiet', 'rapid', 'shy', 'tidy', 'urban', 'vivid', 'witty', 'young', 'zesty', 'brave',
  'clever', 'daring', 'early', 'fair', 'grand', 'humble', 'ivory', 'jade', 'kind', 'lunar', 'misty',
];
// prettier-ignore
const NOUNS = [
  'fox', 'owl', 'oak', 'river', 'stone', 'cloud', 'ember', 'fern', 'gale', 'harbor', 'island', 'jet', 'kite', 'lake',
  'meadow', 'nest', 'orchid', 'pine', 'quartz', 'reef', 'sparrow', 'tide', 'umber', 'vale', 'willow', 'yarrow',
  'zephyr', 'birch', 'cedar', 'dune', 'elm', 'falcon', 'grove', 'heron', 'iris', 'juniper', 'koi', 'lotus', 'maple',
  'nova', 'otter',
];
const TIERS = ['gold', 'silver', 'bronze', 'iron'];

const parentOf = (n: number) => `parent${String(n % PARENTS).padStart(2, '0')}.eth`;
const sqlArray = (words: string[]) => `ARRAY[${words.map((w) => `'${w}'`).join(',')}]`;

// ---------------------------------------------------------------- output

const isTty = process.stderr.isTTY;
function progress(label: string, done: number, total: number): void {
  const pct = Math.floor((done / total) * 100);
  const bar = '#'.repeat(Math.floor(pct / 4)).padEnd(25, '.');
  const line = `${label.padEnd(34)} [${bar}] ${String(pct).padStart(3)}%  ${done.toLocaleString('en')} / ${total.toLocaleString('en')}`;
  if (isTty) process.stderr.write(`\r${line}${done === total ? '\n' : ''}`);
  else if (done === total || pct % 10 === 0) process.stderr.write(`${line}\n`);
}
const say = (msg: string) => process.stderr.write(`${msg}\n`);

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

// ---------------------------------------------------------------- database

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function connect(url: string): Promise<Client> {
  const c = new Client({ connectionString: url, application_name: 'bench-search' });
  await c.connect();
  return c;
}

async function prepareDatabase(base: string, reuse: boolean): Promise<{ url: string; seeded: boolean }> {
  const url = withDatabase(base, DB_NAME);
  const admin = await connect(base);
  try {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME])).rowCount! > 0;
    if (exists && reuse) {
      const db = await connect(url);
      try {
        const n = await db.query('SELECT count(*)::int AS n FROM subnames').catch(() => ({ rows: [{ n: -1 }] }));
        if (n.rows[0].n === ROWS) {
          say(`reusing ${DB_NAME}: ${ROWS.toLocaleString('en')} subnames already seeded`);
          return { url, seeded: true };
        }
      } finally {
        await db.end();
      }
    }
    if (exists) await admin.query(`DROP DATABASE ${DB_NAME} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DB_NAME}`);
    return { url, seeded: false };
  } finally {
    await admin.end();
  }
}

function migrate(url: string): void {
  const t0 = performance.now();
  execFileSync(process.execPath, [join(ROOT, 'dist', 'database', 'migrate-cli.js')], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  say(`migrations applied (${seconds(t0)})`);
}

/** Rows g in [from, to]: parent g % 100, owner g % 20000, metadata tier (g / 100) % 4 and batch g % 5000. */
function seedChunkSql(): string {
  return `
    INSERT INTO subnames (full_name, parent_name, label, namehash, texts, addresses, metadata, owner, created_at, updated_at)
    SELECT r.label || '.' || r.parent, r.parent, r.label,
           '0x' || md5(r.label || '.' || r.parent) || md5(r.parent || '.' || r.label),
           jsonb_build_object('url', 'https://example.com/' || r.label, 'com.github', r.label),
           jsonb_build_object('60', r.owner),
           jsonb_build_object('tier', (${sqlArray(TIERS)})[1 + (g / ${PARENTS}) % 4], 'batch', 'b' || (g % ${BATCHES}),
                              'campaign', 'c' || (g % 50000)),
           r.owner, r.at, r.at
      FROM generate_series($1::int, $2::int) AS g,
           LATERAL (SELECT
             'parent' || lpad((g % ${PARENTS})::text, 2, '0') || '.eth' AS parent,
             (${sqlArray(ADJECTIVES)})[1 + (g / ${PARENTS}) % ${ADJECTIVES.length}] || '-' ||
               (${sqlArray(NOUNS)})[1 + (g / ${PARENTS} / ${ADJECTIVES.length}) % ${NOUNS.length}] || '-' ||
               (g / ${PARENTS}) AS label,
             '0x' || md5('owner' || (g % ${OWNERS})) || substr(md5('owner2' || (g % ${OWNERS})), 1, 8) AS owner,
             timestamptz '2025-01-01 00:00:00Z' + g * interval '30 seconds' AS at) AS r`;
}

async function seed(url: string): Promise<void> {
  const db = await connect(url);
  try {
    await db.query(`SET maintenance_work_mem = '1GB'`);
    await db.query('SET max_parallel_maintenance_workers = 2');
    await db.query('SET synchronous_commit = off');
    // The load runs without the secondary indexes; they are rebuilt from their own definitions.
    const indexes: { name: string; def: string }[] = (
      await db.query(
        `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
          WHERE i.schemaname = 'public' AND i.tablename = 'subnames'
            AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
      )
    ).rows;
    for (const ix of indexes) await db.query(`DROP INDEX "${ix.name}"`);

    const t0 = performance.now();
    progress('inserting subnames', 0, ROWS);
    for (let from = 0; from < ROWS; from += CHUNK) {
      const to = Math.min(ROWS, from + CHUNK) - 1;
      await db.query(seedChunkSql(), [from, to]);
      progress('inserting subnames', to + 1, ROWS);
    }
    say(`inserted ${ROWS.toLocaleString('en')} rows (${seconds(t0)})`);

    const t1 = performance.now();
    for (const [i, ix] of indexes.entries()) {
      progress(`building ${ix.name}`.slice(0, 34), i, indexes.length);
      await db.query(ix.def);
    }
    progress('building indexes', indexes.length, indexes.length);
    say(`rebuilt ${indexes.length} indexes: ${indexes.map((i) => i.name).join(', ')} (${seconds(t1)})`);

    // A snapshot open elsewhere in the database (autovacuum's ANALYZE of the fresh rows, say) keeps VACUUM
    // from marking pages all-visible, and without that no count is index-only: repeat until it holds.
    const t2 = performance.now();
    let visible = 0;
    for (let attempt = 1; attempt <= 10 && visible < 0.99; attempt++) {
      await db.query('VACUUM (ANALYZE) subnames');
      const { rows } = await db.query(
        `SELECT relallvisible::float / greatest(relpages, 1) AS v FROM pg_class WHERE relname = 'subnames'`,
      );
      visible = Number(rows[0].v);
      if (visible < 0.99) await new Promise((r) => setTimeout(r, 1000));
    }
    say(`VACUUM ANALYZE: ${(visible * 100).toFixed(1)}% of pages all-visible (${seconds(t2)})`);
  } finally {
    await db.end();
  }
}

// ---------------------------------------------------------------- service

async function startService(url: string, dataDir: string): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_KEY: '100000000',
      RATE_LIMIT_PER_IP: '100000000',
      MINT_MAINNET_SIGNER_KEY: `0x${'11'.repeat(32)}`,
      MINT_TESTNET_SIGNER_KEY: `0x${'22'.repeat(32)}`,
      CCIP_SIGNER_KEY: `0x${'33'.repeat(32)}`,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    try {
      await fetch(`${base}/api/v1/no-such-route`);
      return { base, child };
    } catch {
      if (Date.now() > deadline) throw new Error('service did not start within 60 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

// ---------------------------------------------------------------- scenarios

type Body = Partial<SearchSubnamesDto>;

interface Scenario {
  name: string;
  /** The status the service must answer: 200, or 400 for a search the bounds refuse (not timed). */
  status?: number;
  /** What the request asks for, for the reader of the table. */
  shape: string;
  request(i: number): { path: string; body?: Body };
  /** The search the request makes, for EXPLAIN; undefined for non-search routes. */
  search?(i: number): Body;
  explainSql?(i: number): { sql: string; params: unknown[] };
}

/** Row g of the seed, for inputs that are known to exist. */
const labelOf = (g: number) => {
  const k = Math.floor(g / PARENTS);
  return `${ADJECTIVES[k % ADJECTIVES.length]}-${NOUNS[Math.floor(k / ADJECTIVES.length) % NOUNS.length]}-${k}`;
};
const ownerIndex = (i: number) => (i * 7919) % OWNERS;
// The seed's owner column: md5 hex, computed the same way in SQL; fetched once (see ownerAddresses).
let ownerAddresses: string[] = [];

function searchScenario(name: string, shape: string, body: (i: number) => Body): Scenario {
  return {
    name,
    shape,
    request: (i) => ({ path: '/api/v1/subnames/search', body: body(i) }),
    search: body,
  };
}

function scenarios(): Scenario[] {
  const p = (i: number) => parentOf(i);
  const ten = (i: number) => Array.from({ length: 10 }, (_, k) => p(i + k * 7));
  return [
    searchScenario('parentName', '{parentName} (10,000 match)', (i) => ({ parentName: p(i) })),
    {
      name: 'parentName, GET /subnames',
      shape: '?parentName= (10,000 match)',
      request: (i) => ({ path: `/api/v1/subnames?parentName=${p(i)}` }),
      search: (i) => ({ parentName: p(i) }),
    },
    searchScenario('parentNames (5 parents)', '{parentNames: 5} (50,000 match)', (i) => ({
      parentNames: [0, 17, 34, 51, 68].map((d) => p(i + d)),
    })),
    searchScenario('labelSearch (word)', '{parentName, labelSearch: "amber"} (~270 match)', (i) => ({
      parentName: p(i),
      labelSearch: ADJECTIVES[i % ADJECTIVES.length].toUpperCase(),
    })),
    searchScenario('labelSearch (rare)', '{parentName, labelSearch: "-4321"} (1 match)', (i) => ({
      parentName: p(i),
      labelSearch: `-${1000 + ((i * 37) % 9000)}`,
    })),
    searchScenario('labelSearch, 5 parents', '{parentNames: 5, labelSearch: "fox-"} (~1,200 match)', (i) => ({
      parentNames: [0, 17, 34, 51, 68].map((d) => p(i + d)),
      labelSearch: `${NOUNS[i % NOUNS.length]}-`,
    })),
    searchScenario('owner', '{parentName, owner} (50 match)', (i) => ({
      parentName: p(ownerIndex(i)),
      owner: ownerAddresses[ownerIndex(i)].toUpperCase().replace('0X', '0x'),
    })),
    searchScenario('metadata (selective)', '{parentName, metadata: {batch}} (200 match)', (i) => ({
      parentName: p((i * 31) % BATCHES),
      metadata: { batch: `b${(i * 31) % BATCHES}` },
    })),
    searchScenario('metadata (broad)', '{parentName, metadata: {tier}} (2,500 match)', (i) => ({
      parentName: p(i),
      metadata: { tier: TIERS[i % TIERS.length] },
    })),
    searchScenario('metadata, 5 parents', '{parentNames: 5, metadata: {tier}} (12,500 match)', (i) => ({
      parentNames: [0, 17, 34, 51, 68].map((d) => p(i + d)),
      metadata: { tier: TIERS[i % TIERS.length] },
    })),
    searchScenario('combined', '{parentNames: 2, labelSearch, owner, metadata}', (i) => {
      const o = ownerIndex(i);
      return {
        parentNames: [p(o), p(o + 1)],
        labelSearch: labelOf(o).split('-')[0],
        owner: ownerAddresses[o],
        metadata: { tier: TIERS[Math.floor(o / PARENTS) % TIERS.length] },
      };
    }),
    searchScenario('deep page', '{parentName, page: 380, size: 25} (offset 9,475)', (i) => ({
      parentName: p(i),
      page: 380,
      size: 25,
    })),
    searchScenario('page size 100', '{parentName, size: 100}', (i) => ({ parentName: p(i), size: 100 })),
    // The worst searches the bounds allow: the most parents, the deepest page, the broadest filters.
    searchScenario('worst: 10 parents', '{parentNames: 10} (100,000 match)', (i) => ({ parentNames: ten(i) })),
    searchScenario('worst: deepest page, 1 parent', '{parentName, page: 100, size: 100} (offset 9,900)', (i) => ({
      parentName: p(i),
      page: 100,
      size: 100,
    })),
    searchScenario('worst: deepest page, 10 parents', '{parentNames: 10, page: 100, size: 100}', (i) => ({
      parentNames: ten(i),
      page: 100,
      size: 100,
    })),
    searchScenario('worst: metadata broad, 10', '{parentNames: 10, metadata: {tier}} (25,000 match)', (i) => ({
      parentNames: ten(i),
      metadata: { tier: TIERS[i % TIERS.length] },
    })),
    searchScenario(
      'worst: metadata, 10, deepest',
      '{parentNames: 10, metadata: {tier}, page: 100, size: 100}',
      (i) => ({
        parentNames: ten(i),
        metadata: { tier: TIERS[i % TIERS.length] },
        page: 100,
        size: 100,
      }),
    ),
    searchScenario('worst: labelSearch 1 char', '{parentName, labelSearch: "a"} (~5,900 match)', (i) => ({
      parentName: p(i),
      labelSearch: 'aeiou'[i % 5],
    })),
    searchScenario('worst: labelSearch 2 chars', '{parentName, labelSearch: "ox"} (~260 match)', (i) => ({
      parentName: p(i),
      labelSearch: ['ox', 'er', 'an', 'le', 'in'][i % 5],
    })),
    searchScenario('worst: labelSearch 3, 10 parents', '{parentNames: 10, labelSearch: "ber"}', (i) => ({
      parentNames: ten(i),
      labelSearch: ['ber', 'ale', 'ver', 'ent', 'all'][i % 5],
    })),
    {
      ...searchScenario('refused: 1-2 chars, 2+ parents', '{parentNames: 100, labelSearch: "a"}', () => ({
        parentNames: Array.from({ length: 10 }, (_, k) => p(k)),
        labelSearch: 'a',
      })),
      status: 400,
    },
    {
      ...searchScenario('refused: 100 parents', '{parentNames: 100}', () => ({
        parentNames: Array.from({ length: PARENTS }, (_, k) => p(k)),
      })),
      status: 400,
    },
    {
      ...searchScenario('refused: page past 10,000', '{parentName, page: 401, size: 25}', (i) => ({
        parentName: p(i),
        page: 401,
      })),
      status: 400,
    },
    {
      name: 'GET /subnames/{fullName}',
      shape: 'one subname by name',
      request: (i) => {
        const g = (i * 104_729) % ROWS;
        return { path: `/api/v1/subnames/${labelOf(g)}.${parentOf(g)}` };
      },
      // The statement of SubnamesRepository.findByFullName.
      explainSql: (i) => {
        const g = (i * 104_729) % ROWS;
        return { sql: 'SELECT * FROM subnames WHERE full_name = $1', params: [`${labelOf(g)}.${parentOf(g)}`] };
      },
    },
  ];
}

/** Exactly what the service runs for a search body: its normaliser, then the repository's SQL. */
function searchSql(body: Body): { sql: string; params: unknown[] } {
  const dto = Object.assign(new SearchSubnamesDto(), body);
  return buildSearchQuery(toSubnameFilter(dto), { limit: dto.size, offset: (dto.page - 1) * dto.size });
}

// ---------------------------------------------------------------- measuring

interface Stats {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { n: s.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: s[s.length - 1] };
}

async function time(fn: (i: number) => Promise<void>): Promise<Stats> {
  for (let i = 0; i < WARMUP; i++) await fn(i + 1_000_000);
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    await fn(i);
    samples.push(performance.now() - t0);
  }
  return stats(samples);
}

/** Searches the service stopped at SEARCH_STATEMENT_TIMEOUT_MS (503 SEARCH_TIMEOUT), per scenario. */
let timeouts = 0;

async function call(base: string, req: { path: string; body?: Body }, expect: number): Promise<unknown> {
  const res = await fetch(`${base}${req.path}`, {
    method: req.body ? 'POST' : 'GET',
    headers: req.body ? { 'content-type': 'application/json' } : undefined,
    body: req.body ? JSON.stringify(req.body) : undefined,
  });
  const json = (await res.json()) as { code?: string };
  if (res.status === 503 && json.code === 'SEARCH_TIMEOUT' && expect === 200) {
    timeouts++;
    return json;
  }
  if (res.status !== expect) throw new Error(`${req.path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function indexNames(node: PlanNode, out = new Set<string>()): Set<string> {
  if (node['Index Name']) out.add(node['Index Name']);
  for (const child of node.Plans ?? []) indexNames(child, out);
  return out;
}

function nodeTypes(node: PlanNode, out = new Set<string>()): Set<string> {
  out.add(node['Node Type']);
  for (const child of node.Plans ?? []) nodeTypes(child, out);
  return out;
}

const EXPLAIN_RUNS = 5;

interface Explained {
  indexes: string[];
  seqScan: boolean;
  /** Median and worst execution time of EXPLAIN_RUNS runs. */
  executionMs: number;
  maxExecutionMs: number;
  jit: boolean;
  text: string;
}

async function explain(db: Client, q: { sql: string; params: unknown[] }): Promise<Explained> {
  type Json = { Plan: PlanNode; 'Execution Time': number; JIT?: unknown }[];
  const runs: Json[] = [];
  for (let i = 0; i < EXPLAIN_RUNS; i++) {
    runs.push(
      (await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${q.sql}`, q.params)).rows[0]['QUERY PLAN'] as Json,
    );
  }
  const times = runs.map((r) => r[0]['Execution Time']).sort((a, b) => a - b);
  const json = runs[0];
  const text = (await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`, q.params)).rows
    .map((r: Record<string, string>) => r['QUERY PLAN'])
    .join('\n');
  return {
    indexes: [...indexNames(json[0].Plan)],
    seqScan: nodeTypes(json[0].Plan).has('Seq Scan'),
    executionMs: times[Math.floor(times.length / 2)],
    maxExecutionMs: times[times.length - 1],
    jit: json[0].JIT !== undefined,
    text,
  };
}

const ms = (v: number) => v.toFixed(1).padStart(6);

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    console.error('bench:search needs DATABASE_URL (a PostgreSQL server; it creates the database sns_search_bench)');
    process.exit(2);
  }
  const started = performance.now();
  const { url, seeded } = await prepareDatabase(base, process.argv.includes('--reuse'));
  migrate(url);
  if (!seeded) await seed(url);

  const db = await connect(url);
  ownerAddresses = (
    await db.query(
      `SELECT '0x' || md5('owner' || o) || substr(md5('owner2' || o), 1, 8) AS a
         FROM generate_series(0, ${OWNERS - 1}) o ORDER BY o`,
    )
  ).rows.map((r: { a: string }) => r.a);
  const size = (
    await db.query(
      `SELECT pg_size_pretty(pg_table_size('subnames')) AS heap, pg_size_pretty(pg_indexes_size('subnames')) AS idx,
              (SELECT count(*) FROM subnames) AS n`,
    )
  ).rows[0];
  say(`subnames: ${Number(size.n).toLocaleString('en')} rows, table ${size.heap}, indexes ${size.idx}`);

  const dataDir = mkdtempSync(join(tmpdir(), 'sns-search-bench-'));
  const { base: http, child } = await startService(url, dataDir);
  const results: Record<string, unknown>[] = [];
  try {
    // Sanity: the answers are what the seed implies, before anything is timed.
    const check = (await call(http, { path: '/api/v1/subnames/search', body: { parentName: parentOf(7) } }, 200)) as {
      totalItems: number;
    };
    if (check.totalItems !== ROWS / PARENTS) throw new Error(`expected ${ROWS / PARENTS} under parent07.eth`);

    say(`\nmeasuring ${REQUESTS} sequential requests per line (after ${WARMUP} warm-up requests)…`);
    const refHttp = await time(async () => {
      const res = await fetch(`${http}/api/v1/no-such-route`);
      await res.arrayBuffer();
    });
    const refDb = await time(async () => {
      await db.query('SELECT 1');
    });

    const rows: string[] = [];
    const header = `${'scenario'.padEnd(32)} ${'p50 ms'.padStart(6)} ${'p95 ms'.padStart(6)} ${'p99 ms'.padStart(6)}  ${'SQL ms'.padStart(6)} ${'max'.padStart(6)}  indexes in the plan`;
    rows.push(header, '-'.repeat(header.length + 40));
    rows.push(
      `${'ref: trivial HTTP route (404)'.padEnd(32)} ${ms(refHttp.p50)} ${ms(refHttp.p95)} ${ms(refHttp.p99)}  ${''.padStart(13)}  same process, no database`,
    );
    rows.push(
      `${'ref: SELECT 1 (direct pg)'.padEnd(32)} ${ms(refDb.p50)} ${ms(refDb.p95)} ${ms(refDb.p99)}  ${''.padStart(13)}  one round trip to PostgreSQL`,
    );
    results.push({ name: 'ref: trivial HTTP route', ...refHttp }, { name: 'ref: SELECT 1', ...refDb });

    const plans: string[] = [];
    for (const s of scenarios()) {
      const sample = s.request(3);
      if (s.status === 400) {
        const refused = (await call(http, sample, 400)) as { errors?: { field: string }[] };
        rows.push(`${s.name.padEnd(32)} 400, naming ${refused.errors?.map((e) => e.field).join(', ')} (not run)`);
        results.push({ name: s.name, shape: s.shape, status: 400 });
        continue;
      }
      const first = (await call(http, sample, 200)) as { totalItems?: number; items?: unknown[] };
      timeouts = 0;
      const lat = await time(async (i) => {
        await call(http, s.request(i), 200);
      });
      const stopped = timeouts;
      const q = s.search ? searchSql(s.search(3)) : s.explainSql!(3);
      const plan = await explain(db, q);
      const note = `${plan.indexes.join(', ') || '(none)'}${plan.seqScan ? '  SEQ SCAN' : ''}${plan.jit ? '  JIT' : ''}${
        stopped ? `  ${stopped} SEARCH_TIMEOUT` : ''
      }`;
      rows.push(
        `${s.name.padEnd(32)} ${ms(lat.p50)} ${ms(lat.p95)} ${ms(lat.p99)}  ${ms(plan.executionMs)} ${ms(plan.maxExecutionMs)}  ${note}`,
      );
      plans.push(
        `--- ${s.name}: ${s.shape}\n${q.sql.replace(/\s+/g, ' ').trim()}\nparams ${JSON.stringify(q.params)}\n${plan.text}`,
      );
      results.push({
        name: s.name,
        shape: s.shape,
        ...lat,
        searchTimeouts: stopped,
        sampleTotalItems: first.totalItems,
        sampleItems: first.items?.length,
        explain: {
          indexes: plan.indexes,
          seqScan: plan.seqScan,
          executionMs: plan.executionMs,
          maxExecutionMs: plan.maxExecutionMs,
          jit: plan.jit,
        },
      });
    }

    console.log(
      `\nbench:search — ${ROWS.toLocaleString('en')} subnames under ${PARENTS} parents, PostgreSQL ${
        (await db.query('SHOW server_version')).rows[0].server_version
      }, ${cpus().length} CPU cores`,
    );
    console.log(
      `latency over HTTP, one request at a time; SQL ms = median (max) EXPLAIN ANALYZE execution time of the same query over ${EXPLAIN_RUNS} runs\n`,
    );
    console.log(rows.join('\n'));
    console.log('\nplans (EXPLAIN ANALYZE, BUFFERS):\n');
    console.log(plans.join('\n\n'));
    console.log(`\nwhole run: ${seconds(started)}`);

    mkdirSync(join(__dirname, '.results'), { recursive: true });
    const file = join(__dirname, '.results', `search-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify({ rows: ROWS, parents: PARENTS, requests: REQUESTS, results }, null, 2)}\n`);
    say(`results written to ${file}`);
  } finally {
    child.kill('SIGTERM');
    await db.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
