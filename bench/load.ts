/** A closed-loop load generator: `concurrency` workers each send one request after another. */
export interface LoadResult {
  name: string;
  requests: number;
  seconds: number;
  throughput: number;
  p50: number;
  p95: number;
  p99: number;
  statuses: Record<number, number>;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function runLoad(
  name: string,
  total: number,
  concurrency: number,
  send: (i: number) => Promise<number>,
  warmup = Math.min(200, Math.floor(total / 10)),
): Promise<LoadResult> {
  // Warm-up requests (JIT, connection pools) use indexes past the measured range, so they never collide with it.
  for (let w = 0; w < warmup; w += concurrency) {
    await Promise.all(Array.from({ length: Math.min(concurrency, warmup - w) }, (_, k) => send(total + w + k)));
  }
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < total; i = next++) {
        const t0 = performance.now();
        const status = await send(i);
        latencies.push(performance.now() - t0);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    requests: total,
    seconds,
    throughput: total / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    statuses,
  };
}

export function printTable(rows: LoadResult[]): void {
  const header = ['workload', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'statuses'];
  const lines = rows.map((r) => [
    r.name,
    String(r.requests),
    r.throughput.toFixed(0),
    r.p50.toFixed(2),
    r.p95.toFixed(2),
    r.p99.toFixed(2),
    Object.entries(r.statuses)
      .map(([s, n]) => `${s}×${n}`)
      .join(' '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(fmt(l));
}
