/**
 * The validation pipe alone on the heaviest batch inside every bound (1,000 items × 20 addresses, issue 35.2):
 * `npx ts-node --transpile-only bench/batch-validation.ts`. Validated in slices (as served) and whole (the same
 * DTO without ValidatedInSlices, as before), alternately: microseconds per item, and the longest the event loop
 * waited meanwhile (the largest gap between two turns of a recurring setImmediate). Figures only.
 */
import 'reflect-metadata';
import { evmCoinTypeToNameMap } from '@ensdomains/address-encoder';
import { AppValidationPipe } from '../src/common/validation/validation.pipe';
import { BatchSubnamesDto } from '../src/subnames/dto/batch-subnames.dto';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const ITEMS = 1000;

/** The same DTO without the mark: validated whole, in one synchronous stretch. */
class WholeBatchDto extends BatchSubnamesDto {}

const coins = [60, ...Object.keys(evmCoinTypeToNameMap).map(Number)].slice(0, 20);
const body = (round: number) => ({
  items: Array.from({ length: ITEMS }, (_, i) => ({
    parentName: 'oak.eth',
    label: `heavy${round}-${i}`,
    addresses: coins.map((coin) => ({ coin, value: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })),
  })),
});

/** One validation: its wall time and the longest the event loop waited meanwhile, in ms. */
async function once(pipe: AppValidationPipe, metatype: typeof BatchSubnamesDto, round: number) {
  const value = body(round);
  let stall = 0;
  let last = performance.now();
  let done = false;
  const turn = () => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
    if (!done) setImmediate(turn);
  };
  setImmediate(turn);
  const started = performance.now();
  await pipe.transform(value, { type: 'body', metatype });
  const ms = performance.now() - started;
  done = true;
  await new Promise((resolve) => setImmediate(resolve));
  return { ms, stall: Math.max(stall, performance.now() - last) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const pipe = new AppValidationPipe();
  const sides = { 'in slices': BatchSubnamesDto, whole: WholeBatchDto };
  const seen: Record<string, { ms: number; stall: number }[]> = { 'in slices': [], whole: [] };
  for (let round = -2; round < ROUNDS; round++) {
    for (const [name, metatype] of round % 2 ? Object.entries(sides) : Object.entries(sides).reverse()) {
      const result = await once(pipe, metatype, round);
      if (round >= 0) seen[name].push(result);
    }
  }
  console.log(`\n${ITEMS} items × ${coins.length} addresses, ${ROUNDS} rounds a side (after 2 not counted)\n`);
  console.log('| validated | µs per item (median) | longest event-loop wait, median / max ms |');
  console.log('|---|---:|---:|');
  for (const [name, rows] of Object.entries(seen)) {
    const perItem = (median(rows.map((r) => r.ms)) * 1000) / ITEMS;
    const stalls = rows.map((r) => r.stall);
    console.log(
      `| ${name} | ${Math.round(perItem)} | ${median(stalls).toFixed(1)} / ${Math.max(...stalls).toFixed(1)} |`,
    );
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
