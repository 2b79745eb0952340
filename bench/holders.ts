/**
 * `npm run bench:holders`: holder actions (`POST /holder/records`, signed by an EOA) on a fresh database. A signer's
 * actions are serialised by their issuedAt (each later than the last accepted), so one signer sends one after
 * another; then LOAD_CONNECTIONS signers at once, each its own actions in order. Bodies are signed beforehand with
 * ethers over the typed data `POST /holder/records/typed-data` returns; only the actions are timed. Beside them, the
 * same record change as a keyed write (`POST /subnames` with `x-auth-token`): the difference is the signature's cost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type TypedDataField, Wallet } from 'ethers';
import { LOAD_CONNECTIONS, LoadResult, total } from './load';
import { ADMIN, freshDatabase, startService } from './service';

const ALONE = Number(process.env.BENCH_HOLDER_ACTIONS ?? 300);
const EACH = Number(process.env.BENCH_HOLDER_ACTIONS_EACH ?? 20);
const now = () => Math.floor(Date.now() / 1000);

async function call(url: string, path: string, body: object, headers: Record<string, string> = {}, method = 'POST') {
  return fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function ok<T>(res: Promise<Response>): Promise<T> {
  const r = await res;
  if (!r.ok) throw new Error(`${r.url} answered ${r.status}: ${await r.text()}`);
  return (await r.json()) as T;
}

/** The fields of `action` signed by `signer` over the route's typed data (the domain's own type left out for ethers). */
async function signed(url: string, action: string, signer: Wallet, fields: object): Promise<object> {
  const td = await ok<{ domain: object; types: Record<string, TypedDataField[]>; message: Record<string, unknown> }>(
    call(url, `/api/v1/holder/${action}/typed-data`, fields),
  );
  const { EIP712Domain: _domain, ...types } = td.types;
  return { ...fields, signature: await signer.signTypedData(td.domain, types, td.message) };
}

/** Each list's bodies sent one after another, the lists side by side; all timed. */
async function send(
  url: string,
  name: string,
  lists: object[][],
  path = '/api/v1/holder/records',
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    lists.map(async (bodies) => {
      for (const body of bodies) {
        const t0 = performance.now();
        const res = await call(url, path, body, headers);
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status !== 200) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return total(name, [{ sent: latencies.length, seconds, latencies, errors, statuses }]);
}

/** A signer holding `label`.oak.eth (claimed by signature) and `count` signed record changes of it, in order. */
async function holderWithActions(url: string, label: string, count: number): Promise<object[]> {
  const signer = new Wallet(Wallet.createRandom().privateKey);
  const name = `${label}.oak.eth`;
  // issuedAt may be 10 minutes old or 60 s ahead: the claim and the actions take successive seconds from 5 minutes ago.
  const base = now() - 300;
  const claim = { name, owner: signer.address, texts: [], addresses: [], issuedAt: base };
  await ok(call(url, '/api/v1/holder/claim', await signed(url, 'claim', signer, claim)));
  const bodies: object[] = [];
  for (let k = 1; k <= count; k++) {
    const fields = {
      name,
      texts: [{ key: 'description', value: `change ${k}` }],
      addresses: [],
      contenthash: '',
      issuedAt: base + k,
    };
    bodies.push(await signed(url, 'records', signer, fields));
  }
  return bodies;
}

/** `count` keyed changes of `label`.oak.eth's description, the name created first. */
async function keyedChanges(url: string, key: string, label: string, count: number): Promise<object[]> {
  const body = (value: string) => ({ parentName: 'oak.eth', label, texts: [{ key: 'description', value }] });
  await ok(call(url, '/api/v1/subnames', body('created'), { 'x-auth-token': key }));
  return Array.from({ length: count }, (_, k) => body(`change ${k + 1}`));
}

function row(r: LoadResult): string {
  const statuses = Object.entries(r.statuses)
    .map(([s, n]) => `${n}× ${s}`)
    .join(', ');
  return `| ${r.name} | ${r.requests} | ${r.throughput.toFixed(0)} | ${r.p50} ms | ${r.p99} ms | ${statuses} |`;
}

async function main(): Promise<void> {
  if (Math.max(ALONE, EACH) > 340) throw new Error('a signer has at most 340 successive issuedAt seconds to sign');
  const db = await freshDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'bench-holders-'));
  let service: Awaited<ReturnType<typeof startService>> | undefined;
  try {
    service = await startService({ RATE_LIMIT_PER_HOLDER: '100000000' }, db.url, dir);
    const url = service.url;
    const { key } = await ok<{ key: string }>(
      call(url, '/api/v1/admin/api-keys', { name: 'bench', parentNames: ['oak.eth'] }, { 'x-admin-token': ADMIN }),
    );
    await ok(call(url, '/api/v1/policies/oak.eth', { claims: 'open' }, { 'x-auth-token': key }, 'PUT'));

    const many: object[][] = [];
    for (let i = 0; i < LOAD_CONNECTIONS; i++) many.push(await holderWithActions(url, `holder${i}`, EACH));
    const alone = await holderWithActions(url, 'alone', ALONE);

    console.log(
      `load average: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}\n`,
    );
    console.log('| workload | actions | actions/s | p50 | p99 | answers |');
    console.log('|---|---:|---:|---:|---:|---|');
    console.log(row(await send(url, 'one signer, one action after another', [alone])));
    const side = `${LOAD_CONNECTIONS} signers side by side, each ${EACH} actions one after another`;
    console.log(row(await send(url, side, many)));
    const keyed = { 'x-auth-token': key };
    const keyedAlone = await keyedChanges(url, key, 'keyed', ALONE);
    console.log(row(await send(url, 'keyed write, one after another', [keyedAlone], '/api/v1/subnames', keyed)));
    const keyedMany: object[][] = [];
    for (let i = 0; i < LOAD_CONNECTIONS; i++) keyedMany.push(await keyedChanges(url, key, `keyed${i}`, EACH));
    const keyedSide = `keyed writes, ${LOAD_CONNECTIONS} names side by side, each ${EACH} one after another`;
    console.log(row(await send(url, keyedSide, keyedMany, '/api/v1/subnames', keyed)));
  } finally {
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
