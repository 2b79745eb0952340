/**
 * npm run bench: throughput and latency of the main routes of a real service process, beside reference
 * limits measured in the same run on the same machine with the same load generator:
 *   - a bare node:http server answering a fixed JSON body (the HTTP ceiling of this machine and client);
 *   - the same write transaction the service makes, sent straight to the database with `pg` (the database ceiling).
 * Uses DATABASE_URL (a fresh database is created and dropped) or, unset, the embedded database.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dnsEncode, Interface, namehash } from 'ethers';
import { Client, Pool } from 'pg';
import { freePort } from '../test/support/service-process';
import { LoadResult, printTable, runLoad } from './load';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const N = Number(process.env.BENCH_REQUESTS ?? 4000);
const ADMIN = 'bench-admin-token-0123456789';
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BATCH_SIZE = 100;
const BATCH_CONCURRENCY = Number(process.env.BENCH_BATCH_CONCURRENCY ?? 4);

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error('service exited during start-up');
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('service did not start');
}

async function main(): Promise<void> {
  const base = process.env.DATABASE_URL;
  let dbUrl: string | undefined;
  let dropDb = async () => undefined as unknown;
  const dataDir = mkdtempSync(join(tmpdir(), 'sns-bench-'));
  if (base) {
    const name = `sns_bench_${process.pid}`;
    const c = new Client({ connectionString: base });
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    const u = new URL(base);
    u.pathname = `/${name}`;
    dbUrl = u.toString();
    dropDb = async () => {
      const d = new Client({ connectionString: base });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    };
  }
  console.error(`database: ${base ? 'PostgreSQL (fresh database from DATABASE_URL)' : 'embedded PGlite'}`);
  console.error(`load: ${N} requests per workload, ${CONCURRENCY} concurrent, closed loop, from one client process`);

  // Reference 1: the HTTP ceiling.
  const body = JSON.stringify({ id: 'x', fullName: 'alice.oak.eth', texts: {}, addresses: {}, metadata: {} });
  const bare = createServer((_, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(body);
  });
  const barePort = await freePort();
  await new Promise<void>((r) => bare.listen(barePort, '127.0.0.1', r));
  const rows: LoadResult[] = [];
  let namesPerSecond: { single: number; batch: number } | undefined;
  rows.push(
    await runLoad(
      'reference: bare node:http',
      N,
      CONCURRENCY,
      async () => (await fetch(`http://127.0.0.1:${barePort}/`)).status,
    ),
  );
  bare.close();

  const port = await freePort();
  const child = spawn(process.execPath, [join(__dirname, '..', 'dist', 'main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: dbUrl,
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
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/api/v1/no-route`, child);
    const issued = await fetch(`${url}/api/v1/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN },
      body: JSON.stringify({ name: 'bench', parentNames: ['oak.eth'], quota: 2_000_000_000 }),
    });
    const { key } = (await issued.json()) as { key: string };
    const write = (label: string) =>
      fetch(`${url}/api/v1/subnames`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-token': key },
        body: JSON.stringify({
          parentName: 'oak.eth',
          label,
          texts: [{ key: 'url', value: `https://${label}.example` }],
          addresses: [{ coin: 60, value: ETH }],
          owner: ETH,
        }),
      }).then((r) => r.status);

    // Reference 2: the database ceiling for the write the service makes (upsert + quota charge in one transaction).
    if (dbUrl) {
      const pool = new Pool({ connectionString: dbUrl, max: 10 });
      const [{ api_key_id }] = (await pool.query('SELECT api_key_id FROM key_quotas LIMIT 1')).rows;
      rows.push(
        await runLoad('reference: same write via pg', N, CONCURRENCY, async (i) => {
          const c = await pool.connect();
          try {
            await c.query('BEGIN');
            await c.query(
              `INSERT INTO subnames (full_name, parent_name, label, namehash, created_by, texts)
               VALUES ($1, 'ref.eth', $2, $3, $4, '{"url":"x"}'::jsonb)
               ON CONFLICT (full_name) DO UPDATE SET texts = EXCLUDED.texts RETURNING *, (xmax = 0) AS inserted`,
              [`r${i}.ref.eth`, `r${i}`, '0x' + i.toString(16).padStart(64, '0'), api_key_id],
            );
            await c.query(
              'UPDATE key_quotas SET used = used + 1 WHERE api_key_id = $1 AND used < quota_limit RETURNING used',
              [api_key_id],
            );
            await c.query('COMMIT');
            return 200;
          } finally {
            c.release();
          }
        }),
      );
      await pool.query(`DELETE FROM subnames WHERE parent_name = 'ref.eth'`);
      await pool.end();
    }

    rows.push(await runLoad('POST /subnames (create)', N, CONCURRENCY, (i) => write(`c${i}`)));
    const singleCreates = rows[rows.length - 1];
    // The same creations, 100 to a request, through the batch route; names per second is what compares.
    const batchRequests = Math.max(50, Math.round(N / 20));
    const batchItems = (i: number) =>
      Array.from({ length: BATCH_SIZE }, (_, k) => ({
        parentName: 'oak.eth',
        label: `b${i}-${k}`,
        texts: [{ key: 'url', value: `https://b${i}-${k}.example` }],
        addresses: [{ coin: 60, value: ETH }],
        owner: ETH,
      }));
    rows.push(
      await runLoad(`POST /subnames/batch (${BATCH_SIZE} creates)`, batchRequests, BATCH_CONCURRENCY, async (i) => {
        const res = await fetch(`${url}/api/v1/subnames/batch`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-auth-token': key },
          body: JSON.stringify({ items: batchItems(i) }),
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    const batchCreates = rows[rows.length - 1];
    namesPerSecond = {
      single: singleCreates.throughput,
      batch: batchCreates.throughput * BATCH_SIZE,
    };
    rows.push(await runLoad('POST /subnames (update)', N, CONCURRENCY, (i) => write(`c${i % 500}`)));
    rows.push(
      await runLoad(
        'GET /subnames/:fullName',
        N,
        CONCURRENCY,
        async (i) => (await fetch(`${url}/api/v1/subnames/c${i % N}.oak.eth`)).status,
      ),
    );
    // What a wallet's CCIP-Read fetch sends: resolve(name, addr(node)) for a stored name, answered and signed.
    const resolver = new Interface(['function resolve(bytes name, bytes data)', 'function addr(bytes32 node)']);
    const resolveCalls = Array.from({ length: N }, (_, i) =>
      resolver.encodeFunctionData('resolve', [
        dnsEncode(`c${i}.oak.eth`),
        resolver.encodeFunctionData('addr', [namehash(`c${i}.oak.eth`)]),
      ]),
    );
    const sender = '0x8464135c8f25da09e49bc8782676a84730c318bc';
    const ccipRead = async (data: string) => (await fetch(`${url}/api/v1/ccip-read/${sender}/${data}.json`)).status;
    rows.push(
      await runLoad('GET /ccip-read addr (each name once: uncached)', N, CONCURRENCY, (i) =>
        ccipRead(resolveCalls[i % N]),
      ),
    );
    rows.push(
      await runLoad('GET /ccip-read addr (100 names again and again)', N, CONCURRENCY, (i) =>
        ccipRead(resolveCalls[i % 100]),
      ),
    );
    rows.push(
      await runLoad(
        'POST /subnames/search (parent)',
        Math.min(N, 2000),
        CONCURRENCY,
        async (i) =>
          (
            await fetch(`${url}/api/v1/subnames/search`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ parentName: 'oak.eth', page: 1 + (i % 20), size: 25 }),
            })
          ).status,
      ),
    );
    const listing = await fetch(`${url}/api/v1/admin/listings/mainnet/oak.eth`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN },
      body: JSON.stringify({
        price: '1000000000000000',
        fee: '0',
        paymentReceiver: ETH,
        expirable: false,
        fuses: 0,
        active: true,
      }),
    });
    if (listing.ok) {
      rows.push(
        await runLoad(
          'POST /mint (signed)',
          N,
          CONCURRENCY,
          async (i) =>
            (
              await fetch(`${url}/api/v1/mint`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ label: `m${i}`, parentName: 'oak.eth', minterAddress: ETH }),
              })
            ).status,
        ),
      );
    } else {
      console.error(`mint not benchmarked: listing PUT answered ${listing.status}`);
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await dropDb();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log('');
  printTable(rows);
  if (namesPerSecond) {
    console.log(
      `\nnames created per second: POST /subnames ${namesPerSecond.single.toFixed(0)}, ` +
        `POST /subnames/batch of ${BATCH_SIZE} ${namesPerSecond.batch.toFixed(0)} ` +
        `(${(namesPerSecond.batch / namesPerSecond.single).toFixed(1)}×; batches ${BATCH_CONCURRENCY} concurrent)`,
    );
  }
  console.log(
    '\nThe reference rows bound what the service can reach here: no route can beat the bare HTTP server, and no' +
      '\nwrite route can beat the same transaction sent straight to the database.',
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
