/**
 * What the two bounds checked before validation save on the largest bodies the limits let through:
 * `npx ts-node --transpile-only bench/validation-bounds.ts`. Figures only: ms, median of BENCH_ROUNDS rounds.
 * 1. raw-shape: a 64 KB create whose `addresses` holds 21,000 empty objects, refused by the array's length before
 *    an element is built, beside class-validator's @ArrayMaxSize alone (every element built and validated first).
 * 2. The batch's items precheck: a 2 MB batch of 700,000 empty items, refused from the text, beside what the
 *    request costs without it (JSON.parse, the input-safety walk, then raw-shape's length check); and the
 *    precheck's cost on the largest valid batch (1,000 items × 20 addresses), which every such request pays.
 */
import 'reflect-metadata';
import { evmCoinTypeToNameMap } from '@ensdomains/address-encoder';
import { ValidationFailedError } from '../src/common/errors';
import { topLevelArrayLength } from '../src/common/http/json-array-length';
import { firstInputProblem } from '../src/common/validation/input-safety';
import * as rawShape from '../src/common/validation/raw-shape';
import { AppValidationPipe } from '../src/common/validation/validation.pipe';
import { BatchSubnamesDto } from '../src/subnames/dto/batch-subnames.dto';
import { CreateSubnameDto } from '../src/subnames/dto/create-subname.dto';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);

/** The most `{}` elements of `key`'s array a body of `limit` bytes holds. */
function emptyObjects(limit: number, head: string): string {
  const count = Math.floor((limit - head.length - 2) / 3);
  return `${head}${Array(count).fill('{}').join(',')}]}`;
}

function ms(work: () => unknown): number {
  const started = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function msAsync(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work().catch((e: unknown) => {
    if (!(e instanceof ValidationFailedError)) throw e;
  });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rounds = async (work: () => Promise<number> | number) => {
  const out: number[] = [];
  for (let i = 0; i < ROUNDS; i++) out.push(await work());
  return median(out).toFixed(2);
};

async function rawShapeSection(): Promise<void> {
  const text = emptyObjects(64 * 1024, '{"parentName":"oak.eth","label":"heavy","addresses":[');
  const pipe = new AppValidationPipe();
  const validate = () => pipe.transform(JSON.parse(text), { type: 'body', metatype: CreateSubnameDto });
  const original = rawShape.rawShapeProblems;
  const swap = (fn: typeof original) => ((rawShape as { rawShapeProblems: typeof original }).rawShapeProblems = fn);
  const withCheck = await rounds(() => msAsync(validate));
  swap(() => []);
  const without = await rounds(() => msAsync(validate));
  swap(original);
  console.log(`1. a ${text.length}-byte create with ${((text.length - 56) / 3) | 0} empty addresses (bound 50):`);
  console.log(`   refused by raw-shape: ${withCheck} ms; by @ArrayMaxSize alone: ${without} ms`);
}

async function itemsPrecheckSection(): Promise<void> {
  const text = emptyObjects(2 * 1024 * 1024, '{"items":[');
  const scanned = await rounds(() => ms(() => topLevelArrayLength(text, 'items')));
  const parsed = await rounds(() =>
    ms(() => {
      const value: unknown = JSON.parse(text);
      firstInputProblem(value);
      rawShape.rawShapeProblems(value, BatchSubnamesDto);
    }),
  );
  console.log(`2. a ${text.length}-byte batch of ${((text.length - 12) / 3) | 0} empty items (bound 1,000):`);
  console.log(`   refused from the text: ${scanned} ms; parsed, walked and refused by raw-shape: ${parsed} ms`);
  const coins = [60, ...Object.keys(evmCoinTypeToNameMap).map(Number)].slice(0, 20);
  const valid = JSON.stringify({
    items: Array.from({ length: 1000 }, (_, i) => ({
      parentName: 'oak.eth',
      label: `heavy-${i}`,
      addresses: coins.map((coin) => ({ coin, value: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })),
    })),
  });
  const precheck = await rounds(() => ms(() => topLevelArrayLength(valid, 'items')));
  const parse = await rounds(() => ms(() => JSON.parse(valid)));
  console.log(
    `   the largest valid batch (${valid.length} bytes): precheck ${precheck} ms beside its JSON.parse ${parse} ms`,
  );
}

async function main(): Promise<void> {
  await rawShapeSection();
  await itemsPrecheckSection();
}

void main();
