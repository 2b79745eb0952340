/**
 * The house rules, checked in CI (`npm run lint:deps`): imports run one way, down the floors below. A folder
 * of src/ may import its own files and the folders on lower floors, never a folder on its own floor or
 * above, so no two modules can depend on each other (directly or round a longer circle). A new module goes
 * on the floor above everything it uses (see the README's architecture section). What a file may import by
 * name (a JSON-RPC client only in src/chain/) is beyond dependency-cruiser: eslint.config.mjs says it.
 */
const FLOORS = [
  ['common', 'config'], // ground: helpers and configuration, used by all, using nothing of ours
  ['metrics', 'chain'], // chain: reads ENS on chain (ENS_RPC_URL)
  ['logging', 'signing', 'audit', 'cache', 'dev-chain'], // dev-chain: ENS in memory on loopback, to try the service
  ['auth', 'reads'], // reads: a public read's choice of primary or standby (DATABASE_READ_URL)
  ['quota', 'rate-limit'],
  ['subnames', 'listings', 'admin'],
  ['primary-names'], // above subnames (it reads the chosen name's records), below resolution (which answers name())
  ['mint', 'resolution', 'import', 'health', 'home', 'holders'], // home: the front door at GET /; holders: wallet-signed writes
  ['portal'], // the developer portal: keys (admin), subnames and the resolution status, for a signed-in wallet
  ['database'], // the data source lists every module's entities
  ['cli'], // the command line's own commands (cli.ts assembles them)
];
const FEATURES = FLOORS.flat().join('|');

/** One rule per floor: its folders import nothing on their own floor or above (other than themselves). */
const floorRules = FLOORS.flatMap((floor, level) =>
  floor.map((folder) => {
    const notBelow = FLOORS.slice(level)
      .flat()
      .filter((f) => f !== folder);
    return {
      name: `floors-${folder}`,
      severity: 'error',
      comment: `${folder}/ may use only the floors below it, not ${notBelow.join(', ')}.`,
      from: { path: `^src/${folder}/` },
      to: { path: `^src/(${notBelow.join('|')})/` },
    };
  }),
);

module.exports = {
  forbidden: [
    ...floorRules,
    {
      name: 'no-reaching-into-another-modules-sql',
      severity: 'error',
      comment:
        "A module's SQL is its own: another module calls its service or the statement builders it exports " +
        '(*.statements.ts), never its repository or its SQL-only files (*-queries.ts, *-query.ts).',
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/.+(\\.repository|-query|-queries)\\.ts$', pathNot: '^src/$1/' },
    },
    {
      name: 'every-module-has-a-floor',
      severity: 'error',
      comment: 'A new folder of src/ takes its floor in FLOORS, so the rules above cover it.',
      from: { path: '^src/' },
      to: { path: `^src/(?!(${FEATURES})/)[^/]+/` },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle between files (and so between the modules that hold them).',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'common-is-ground',
      severity: 'error',
      comment: 'common/ holds helpers every module uses; it imports no module, no database/, not even config/.',
      from: { path: '^src/common/' },
      to: { path: '^src/', pathNot: '^src/common/' },
    },
    {
      name: 'config-is-ground',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: '^src/config/' },
    },
    {
      name: 'features-do-not-reach-the-composition-root',
      severity: 'error',
      comment: 'Only main.ts, cli.ts and openapi.ts assemble the application.',
      from: { path: `^src/(${FEATURES}|common|config|database|metrics|logging)/` },
      to: { path: '^src/(app\\.module|app\\.setup|main|cli|openapi)\\.ts$' },
    },
    {
      name: 'not-to-spec-or-test',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { path: '(\\.spec\\.ts$|^test/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^dist/|\\.spec\\.ts$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
