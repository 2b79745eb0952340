/**
 * `npm run bench:cache`: the CCIP-Read gateway behind Varnish with the shipped VCL (deploy/varnish/default.vcl),
 * beside the same service asked directly. One service (RESOLUTION_CACHE_SECONDS=60, CACHE_PURGE_URL at the
 * varnishd in front of it) on a fresh database. Counts the lookups that reached the service (its own count of
 * gateway GETs) for 1,000 identical lookups, for lookups cycling through distinct names, and for identical lookups
 * while the name changes every second (each change's answer read back through Varnish until fresh, purges counted
 * by varnishd); then req/s, p50 and p99 through Varnish and direct, paired.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AbiCoder, Wallet } from 'ethers';
import { freePort } from '../test/support/service-process';
import { startVarnish, Varnish } from '../test/support/varnish';
import { httpLoad, LOAD_CONNECTIONS, LOAD_SECONDS, LoadResult, measureOnce, measurePaired, Workload } from './load';
import { ADMIN, ccipAddrPath, ETH, freshDatabase, startService } from './service';

const LOOKUPS = 1000;
const CYCLE_LOOKUPS = 5000;
const CYCLES = [10, 100, 1000];
const WRITE_SECONDS = Math.max(10, Number(process.env.BENCH_SECONDS ?? 5));
const coder = AbiCoder.defaultAbiCoder();

/** The gateway GETs the service has answered (any status): the lookups that reached the origin. */
async function originLookups(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('http_requests_total{') && l.includes('method="GET"') && l.includes('ccip-read'))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

async function post(url: string, path: string, body: object, headers: Record<string, string>): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** The address a gateway answer (resolve(name, addr(node))) carries. */
async function addressOf(res: Response): Promise<string> {
  const [result] = coder.decode(['bytes', 'uint64', 'bytes'], ((await res.json()) as { data: string }).data);
  return (coder.decode(['address'], result)[0] as string).toLowerCase();
}

interface Counted {
  result: LoadResult;
  origin?: number;
  hits?: number;
  misses?: number;
  purges?: number;
  note?: string;
}

function row(c: Counted): string {
  const r = c.result;
  const seen = (c.hits ?? 0) + (c.misses ?? 0);
  const hitRatio = c.hits === undefined ? '-' : `${c.hits} of ${seen} (${((c.hits / seen) * 100).toFixed(1)} %)`;
  return (
    `| ${r.name} | ${r.requests} | ${c.origin ?? '-'} | ${hitRatio} | ${c.purges ?? '-'} | ${r.throughput.toFixed(0)} | ` +
    `${r.p50} ms | ${r.p99} ms | ${r.errors} |${c.note ? ` ${c.note}` : ''}`
  );
}

/** Runs `load` and counts what reached the service and what Varnish answered from its cache meanwhile. */
async function counted(service: string, varnish: Varnish, load: () => Promise<LoadResult>): Promise<Counted> {
  const [origin, stats] = [await originLookups(service), await varnish.counters()];
  const result = await load();
  const [originAfter, statsAfter] = [await originLookups(service), await varnish.counters()];
  const delta = (k: string) => statsAfter[k] - stats[k];
  const [hits, misses] = [delta('MAIN.cache_hit'), delta('MAIN.cache_miss')];
  return { result, origin: originAfter - origin, hits, misses, purges: delta('MAIN.bans_added') };
}

/**
 * Identical lookups of `name` through Varnish for WRITE_SECONDS while its address changes every second; after
 * each write, reads it back through Varnish until the new address shows, and notes how long that took.
 */
async function whileWriting(service: string, cache: string, key: string, name: string, fresh: number[]) {
  const path = ccipAddrPath(`${name}.oak.eth`);
  const workload = { name: 'identical lookups, a write every second', url: cache, next: () => ({ path }) };
  const load = measureOnce(workload, { duration: WRITE_SECONDS });
  const until = Date.now() + WRITE_SECONDS * 1000 - 1000;
  while (Date.now() < until) {
    const next = Wallet.createRandom().address.toLowerCase();
    const body = { parentName: 'oak.eth', label: name, addresses: [{ coin: 60, value: next }] };
    await post(service, '/api/v1/subnames', body, { 'x-auth-token': key });
    const written = Date.now();
    // Polled every 5 ms: the purge leaves the service after the commit, so the first read may still be the old one.
    while ((await addressOf(await fetch(`${cache}${path}`))) !== next) {
      if (Date.now() - written > 5_000) throw new Error(`${name} still answered stale 5 s after a write`);
      await new Promise((r) => setTimeout(r, 5));
    }
    fresh.push(Date.now() - written);
    await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - written))));
  }
  return load;
}

async function main(): Promise<void> {
  const db = await freshDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'bench-cache-'));
  const cachePort = await freePort();
  let service: Awaited<ReturnType<typeof startService>> | undefined;
  let varnish: Varnish | undefined;
  try {
    service = await startService(
      { RESOLUTION_CACHE_SECONDS: '60', CACHE_PURGE_URL: `http://127.0.0.1:${cachePort}/` },
      db.url,
      dir,
    );
    varnish = await startVarnish(Number(new URL(service.url).port), cachePort);
    const s = service.url;
    const v = varnish.url;
    const { key } = (await post(
      s,
      '/api/v1/admin/api-keys',
      { name: 'bench', parentNames: ['oak.eth'] },
      { 'x-admin-token': ADMIN },
    )) as { key: string };
    // Names c0…c1109 (each set of cycling names its own, so no set starts warm), one and two for identical lookups.
    const labels = [...Array.from({ length: 1110 }, (_, i) => `c${i}`), 'one', 'two', 'paired', 'busy'];
    for (let b = 0; b < labels.length; b += 100) {
      const items = labels.slice(b, b + 100).map((label) => ({
        parentName: 'oak.eth',
        label,
        addresses: [{ coin: 60, value: ETH }],
      }));
      await post(s, '/api/v1/subnames/batch', { items }, { 'x-auth-token': key });
    }
    console.log(
      `load average: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`,
    );
    console.log(`${LOAD_CONNECTIONS} connections; RESOLUTION_CACHE_SECONDS=60; Varnish ${v}, service ${s}\n`);
    console.log(
      '| workload | requests | origin hits | Varnish hits of lookups | purges | req/s | p50 | p99 | errors |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');

    const identical = (name: string, url: string): Workload => {
      const path = ccipAddrPath(`${name}.oak.eth`);
      return { name: `${LOOKUPS} identical lookups (${name}.oak.eth)`, url, next: () => ({ path }) };
    };
    const through = await counted(s, varnish, () => measureOnce(identical('one', v), { amount: LOOKUPS }));
    console.log(row({ ...through, result: { ...through.result, name: `${through.result.name}, through Varnish` } }));
    const direct = await counted(s, varnish, () => measureOnce(identical('two', s), { amount: LOOKUPS }));
    console.log(row({ ...direct, hits: undefined, purges: undefined }));

    let first = 0;
    for (const n of CYCLES) {
      const names = Array.from({ length: n }, (_, i) => ccipAddrPath(`c${first + i}.oak.eth`));
      first += n;
      const w = { name: `${n} names cycling, through Varnish`, url: v, next: (i: number) => ({ path: names[i % n] }) };
      console.log(row(await counted(s, varnish, () => measureOnce(w, { amount: CYCLE_LOOKUPS }))));
    }

    const fresh: number[] = [];
    const during = await counted(s, varnish, () => whileWriting(s, v, key, 'busy', fresh));
    const spread = `${Math.min(...fresh)}-${Math.max(...fresh)} ms`;
    console.log(row({ ...during, note: `(${fresh.length} writes, each fresh through Varnish ${spread} after it)` }));

    const paired = (url: string, side: string) => ({ ...identical('paired', url), name: `identical lookups, ${side}` });
    const [a, d] = await measurePaired(httpLoad(paired(v, 'through Varnish')), httpLoad(paired(s, 'direct')));
    console.log(`\npaired, ${LOAD_SECONDS} s each side after a warm-up:`);
    for (const r of [a, d]) console.log(row({ result: r }));
  } finally {
    await varnish?.stop();
    service?.child.kill();
    await new Promise((r) => setTimeout(r, 500));
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
