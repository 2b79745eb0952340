/**
 * npm run bench:compare -- <a build's dist/main.js> [<another's>]: two builds of the service side by side, paired.
 * Both run at once (one process each, as production runs it, each on a fresh database with the same 2,000 stored
 * names and a mint listing); each workload then alternates between them in slices (A B B A…, BENCH_SLICE_SECONDS,
 * BENCH_SECONDS of each in all) and prints both figures and their quotient: requests per second, and the CPU
 * time each service's process spent per request (from /proc, which moves far less than throughput on a shared
 * machine). The second build defaults to this checkout's dist/main.js. Prints progress on stderr and the table
 * on stdout; nothing fails on a figure. What "before → after" in bench/RESULTS.md is measured
 * with.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LoadResult, LOAD_SECONDS, measurePaired, SLICE_SECONDS } from './load';
import { side } from './compare-side';

function progress(message: string): void {
  console.error(`[compare ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

function row(a: LoadResult, b: LoadResult): string[] {
  const cpu = (r: LoadResult) => (r.cpuUsPerRequest === undefined ? '' : r.cpuUsPerRequest.toFixed(0));
  return [
    a.name,
    a.throughput.toFixed(0),
    b.throughput.toFixed(0),
    (b.throughput / a.throughput).toFixed(3),
    cpu(a),
    cpu(b),
    a.cpuUsPerRequest && b.cpuUsPerRequest ? (b.cpuUsPerRequest / a.cpuUsPerRequest).toFixed(3) : '',
    String(a.errors + b.errors),
  ];
}

async function main(): Promise<void> {
  const [first, second] = process.argv.slice(2);
  if (!first) throw new Error('usage: npm run bench:compare -- <a build dist/main.js> [<b build dist/main.js>]');
  const mains = [resolve(first), resolve(second ?? join(__dirname, '..', 'dist', 'main.js'))];
  progress(
    `A = ${mains[0]}\n  B = ${mains[1]}\n  ${LOAD_SECONDS} s of each per workload, in ${SLICE_SECONDS} s slices`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'sns-compare-'));
  const [a, b] = [await side(mains[0], dir), await side(mains[1], dir)];
  const rows: string[][] = [];
  try {
    for (let k = 0; k < a.loads.length; k++) {
      progress(`${k + 1}. ${a.loads[k].name}…`);
      const [ra, rb] = await measurePaired(a.loads[k], b.loads[k]);
      rows.push(row(ra, rb));
      progress(`   A ${ra.throughput.toFixed(0)} req/s, B ${rb.throughput.toFixed(0)} req/s; B/A ${rows.at(-1)![3]}`);
    }
  } finally {
    await a.stop();
    await b.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const header = ['workload', 'A req/s', 'B req/s', 'B/A', 'A CPU µs/req', 'B CPU µs/req', 'B/A CPU', 'errors'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  console.log(['', line(header), rule, ...rows.map(line)].join('\n'));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
