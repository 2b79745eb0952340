/**
 * The abuse section of npm run bench: how long `GET /health/live` takes to answer while the worst bodies the
 * service is sent arrive, beside how long it takes at rest. Each attack runs ABUSE_SECONDS with a few senders
 * in a loop; one probe at a time measures liveness meanwhile. Figures only: nothing here passes or fails.
 *   - batch: the worst-case batch body, 2 MB of `{}` items (about 690,000, far past the 1000 allowed), valid key;
 *   - multicall: the gateway's worst case, a multicall of as many text() calls of a long record as 64 KB carries;
 *   - oversized: a burst of keyless 1 MB bodies on a 64 KB route (refused 413);
 *   - validation: batches of 1,000 items × 20 addresses from one key, 6 at once (issue 35.2), with another
 *     client's reads (GET /subnames/long.oak.eth) timed beside liveness; the issue's target is liveness under
 *     1 s and those reads' p99 under 200 ms.
 */
import { evmCoinTypeToNameMap } from '@ensdomains/address-encoder';
import { dnsEncode, Interface, namehash } from 'ethers';
import { processTreeMb } from './service';

const ABUSE_SECONDS = Number(process.env.BENCH_ABUSE_SECONDS ?? 3);
const SENDERS = 4;
const OVERSIZED_SENDERS = 32;

export interface AbuseRow {
  name: string;
  /** Liveness probe latencies (ms) while the attack ran. */
  probeP50: number;
  probeP99: number;
  probeMax: number;
  probes: number;
  /** Another client's read latencies (ms) while the attack ran, when measured. */
  readP50?: number;
  readP99?: number;
  /** The attack's answers by status. */
  statuses: Record<string, number>;
  /** Resident memory of the service's processes after the attack. */
  rssMb: number;
}

const resolver = new Interface([
  'function resolve(bytes name, bytes data)',
  'function text(bytes32 node, string key)',
  'function multicall(bytes[] data)',
]);
const SENDER = '0x8464135c8f25da09e49bc8782676a84730c318bc';

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

async function send(url: string, init: RequestInit, statuses: Record<string, number>): Promise<void> {
  try {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  } catch {
    statuses.error = (statuses.error ?? 0) + 1;
  }
}

/** Probes liveness one request at a time while `attack` runs `senders` loops, for ABUSE_SECONDS. */
async function measure(
  name: string,
  base: string,
  pid: number,
  senders: number,
  attack?: (statuses: Record<string, number>) => Promise<void>,
  readUrl?: string,
): Promise<AbuseRow> {
  const statuses: Record<string, number> = {};
  const until = Date.now() + ABUSE_SECONDS * 1000;
  const loops = attack
    ? Array.from({ length: senders }, async () => {
        while (Date.now() < until) await attack(statuses);
      })
    : [];
  /** Times `url`, one request at a time, until the attack ends. */
  const probe = async (url: string) => {
    const times: number[] = [];
    while (Date.now() < until) {
      const started = performance.now();
      await send(url, {}, {});
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b);
  };
  const [latencies, reads] = await Promise.all([probe(`${base}/health/live`), readUrl ? probe(readUrl) : []]);
  await Promise.all(loops);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    ...(readUrl ? { readP50: round(percentile(reads, 50)), readP99: round(percentile(reads, 99)) } : {}),
    name,
    probeP50: round(percentile(latencies, 50)),
    probeP99: round(percentile(latencies, 99)),
    probeMax: round(latencies[latencies.length - 1] ?? 0),
    probes: latencies.length,
    statuses,
    rssMb: Math.round(processTreeMb(pid, 'VmRSS')),
  };
}

/** Liveness at rest, then under each attack. `key` writes under oak.eth. */
export async function measureAbuse(base: string, key: string, pid: number): Promise<AbuseRow[]> {
  const rows = [await measure('at rest', base, pid, 0)];

  const batchBody = `{"items":[${'{},'.repeat(Math.floor((2 * 1024 * 1024 - 20) / 3) - 1)}{}]}`;
  rows.push(
    await measure('worst-case batch body (2 MB of {} items)', base, pid, SENDERS, (s) =>
      send(
        `${base}/api/v1/subnames/batch`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'x-auth-token': key }, body: batchBody },
        s,
      ),
    ),
  );

  const name = 'long.oak.eth';
  const stored = await fetch(`${base}/api/v1/subnames`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': key },
    body: JSON.stringify({
      parentName: 'oak.eth',
      label: 'long',
      texts: [{ key: 'description', value: 'd'.repeat(2000) }],
    }),
  });
  if (stored.status >= 300) throw new Error(`abuse setup: POST /subnames answered ${stored.status}`);
  const call = resolver.encodeFunctionData('text', [namehash(name), 'description']);
  const calls: string[] = [];
  const multicallData = (n: number) =>
    resolver.encodeFunctionData('resolve', [
      dnsEncode(name),
      resolver.encodeFunctionData('multicall', [calls.slice(0, n)]),
    ]);
  while (multicallData(calls.length + 1).length < 60 * 1024) calls.push(call);
  const multicallBody = JSON.stringify({ sender: SENDER, data: multicallData(calls.length) });
  rows.push(
    await measure(
      `worst-case multicall (${calls.length} text() calls of a 2,000-character record)`,
      base,
      pid,
      SENDERS,
      (s) =>
        send(
          `${base}/api/v1/ccip-read`,
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: multicallBody },
          s,
        ),
    ),
  );

  const oversized = `{"parentName":"oak.eth","labelSearch":"${'a'.repeat(1024 * 1024)}"}`;
  rows.push(
    await measure(
      `burst of ${OVERSIZED_SENDERS} keyless 1 MB bodies at once (64 KB route)`,
      base,
      pid,
      OVERSIZED_SENDERS,
      (s) =>
        send(
          `${base}/api/v1/subnames/search`,
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: oversized },
          s,
        ),
    ),
  );
  const coins = [60, ...Object.keys(evmCoinTypeToNameMap).map(Number)].slice(0, 20);
  const heavy = (n: number) =>
    JSON.stringify({
      items: Array.from({ length: 1000 }, (_, i) => ({
        parentName: 'oak.eth',
        label: `heavy${n}-${i}`,
        addresses: coins.map((coin) => ({ coin, value: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })),
      })),
    });
  const heavyBodies = [0, 1, 2, 3, 4, 5].map(heavy);
  let sent = 0;
  rows.push(
    await measure(
      `validation-heavy batches (1,000 items × 20 addresses, ${Math.round(heavyBodies[0].length / 1024)} KB), 6 at ` +
        'once from one key; target (issue 35.2): liveness under 1 s, other reads p99 under 200 ms',
      base,
      pid,
      6,
      (s) =>
        send(
          `${base}/api/v1/subnames/batch`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-auth-token': key },
            body: heavyBodies[sent++ % heavyBodies.length],
          },
          s,
        ),
      `${base}/api/v1/subnames/${name}`,
    ),
  );
  return rows;
}

export function printAbuse(rows: AbuseRow[]): void {
  console.log('\n#### liveness under abuse (GET /health/live, one probe at a time)\n');
  console.log('| while | probes | p50 ms | p99 ms | max ms | other read p50/p99 ms | attack answers | RSS after MB |');
  console.log('|---|---:|---:|---:|---:|---:|---|---:|');
  for (const r of rows) {
    const answers = Object.entries(r.statuses)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    console.log(
      `| ${r.name} | ${r.probes} | ${r.probeP50} | ${r.probeP99} | ${r.probeMax} | ` +
        `${r.readP99 === undefined ? '-' : `${r.readP50} / ${r.readP99}`} | ${answers || '-'} | ${r.rssMb} |`,
    );
  }
}
