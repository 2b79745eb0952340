// `npm run fuzz -- --cases N --seed S [--operation TEXT] [--path P] [--no-shrink]`: the property-based fuzzer of
// test/fuzz.e2e-spec.ts and test/fuzz-portal.e2e-spec.ts with more cases than CI, a chosen or random seed,
// optionally one operation (any part of `METHOD /path`) and a fast-check replay path. It prints the seed first;
// a failure prints the request, the answer, and the seed and path that replay it.
const { spawnSync } = require('node:child_process');
const { randomInt } = require('node:crypto');
const { join } = require('node:path');
const { parseArgs } = require('node:util');

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '10000' },
    seed: { type: 'string' },
    operation: { type: 'string' },
    path: { type: 'string' },
    'no-shrink': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log('npm run fuzz -- [--cases N] [--seed S] [--operation "POST /api/v1/subnames"] [--path P] [--no-shrink]');
  process.exit(0);
}
for (const [flag, v] of [
  ['cases', values.cases],
  ['seed', values.seed],
]) {
  if (v !== undefined && !/^-?\d+$/.test(v)) {
    console.error(`--${flag} must be an integer`);
    process.exit(2);
  }
}
const seed = values.seed ?? String(randomInt(2 ** 31 - 1));
console.log(
  `fuzz: seed ${seed}, ${values.cases} cases per operation${values.operation ? `, operations matching "${values.operation}"` : ''}`,
);
console.log(
  `      replay with: npm run fuzz -- --seed ${seed} --cases ${values.cases}${values.operation ? ` --operation "${values.operation}"` : ''}`,
);

const root = join(__dirname, '..');
const result = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules', 'jest', 'bin', 'jest.js'),
    '--maxWorkers=2',
    '--selectProjects',
    'e2e',
    '--',
    'test/fuzz.e2e-spec.ts',
    'test/fuzz-portal.e2e-spec.ts',
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      FUZZ_CASES: values.cases,
      FUZZ_SEED: seed,
      ...(values.operation ? { FUZZ_OPERATION: values.operation } : {}),
      ...(values.path ? { FUZZ_PATH: values.path } : {}),
      ...(values['no-shrink'] ? { FUZZ_SHRINK: '0' } : {}),
    },
  },
);
if (result.status !== 0)
  console.log(`\nfuzz: failed with seed ${seed}; the failing case and its replay path are above`);
process.exit(result.status ?? 1);
