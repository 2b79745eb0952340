import fc from 'fast-check';
import { DEEP } from '../support/property-runs';
import { writeSuiteLog } from '../support/suite-log';
import { expectSignedOnTheThread } from '../support/test-app';
import { requestArb } from './generators';
import { FuzzHarness } from './harness';
import { OpenApi, Operation } from './openapi';

/**
 * Property-based fuzzing of the operations of openapi.json that `part` takes (fuzz.e2e-spec.ts and
 * fuzz-portal.e2e-spec.ts share them out, so that two jest workers run them at once): no answer is a 5xx, every
 * 4xx is problem JSON, a refused request writes nothing, and a success matches its documented schema. `npm test` runs 150 cases per
 * operation from a fixed seed, `npm run test:deep` 1,000 (FUZZ_CASES overrides both); `npm run fuzz -- --cases N
 * --seed S` runs more.
 */
// 150: with 100, one operation's generated requests (PUT listings) never reach a success (the check below).
const CASES = Number(process.env.FUZZ_CASES ?? (DEEP ? 1000 : 150));
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const PATH = process.env.FUZZ_PATH || undefined;
const ONLY = process.env.FUZZ_OPERATION;
/** Cases between two resets of the data, so that writes do not pile up into an unrepresentative state. */
const RESET_EVERY = 250;
/**
 * Operations whose success no generated request can reach: a sign-in needs a fresh signature of a one-time
 * challenge, a holder action a signature of exactly its generated fields (holders.e2e-spec proves their successes).
 */
const NEVER_BLIND = new Set([
  'POST /portal/api/session',
  ...['claim', 'records', 'transfer', 'delete'].map((action) => `POST /api/v1/holder/${action}`),
]);

export function describeFuzz(name: string, part: (op: Operation) => boolean): void {
  const operations = new OpenApi().operations().filter((op) => part(op) && (!ONLY || op.id.includes(ONLY)));
  // `npm run fuzz -- --operation …` runs both files; the one without a match says so instead of failing empty.
  if (operations.length === 0 && ONLY) {
    it(`fuzz ${name}: no operation matches "${ONLY}"`, () => expect(operations).toEqual([]));
    return;
  }
  describeOperations(
    `fuzz ${name}: ${operations.length} operations of openapi.json, ${CASES} cases each, seed ${SEED}`,
    operations,
  );
}

function describeOperations(title: string, operations: Operation[]): void {
  describe(title, () => {
    let harness: FuzzHarness;

    beforeAll(async () => {
      harness = await FuzzHarness.start();
    });
    afterAll(async () => {
      writeSuiteLog('fuzz', `answers by operation and status (seed ${SEED}):\n${harness?.summary()}`);
      await harness?.close();
    });

    it.each(operations.map((op) => [op.id, op] as const))(
      '%s',
      async (_id, op) => {
        await harness.reset();
        await fc.assert(
          fc.asyncProperty(requestArb(harness.api, op), (model) => harness.run(op, model, RESET_EVERY)),
          {
            numRuns: CASES,
            seed: SEED,
            ...(PATH ? { path: PATH } : {}),
            endOnFailure: process.env.FUZZ_SHRINK === '0',
          },
        );
        // The generators reach past validation: some cases of every operation succeed. When a new operation
        // fails this, give its parameters and body examples in openapi.json (or a setup value in CONTEXT_VALUES).
        if (!PATH && !NEVER_BLIND.has(op.id) && harness.count(op.id, 200, 300) === 0) {
          throw new Error(`no generated request of ${op.id} succeeded:\n${harness.summary(op.id)}`);
        }
      },
      Math.max(120_000, CASES * 300),
    );

    // Every reset sends the examples of the signing operations (mint, CCIP-Read), whatever the operations fuzzed.
    it('signed on the signing thread, as production signs: signing_thread_up 1 after its signatures', async () => {
      await expectSignedOnTheThread(harness);
    });
  });
}
