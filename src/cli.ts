import 'reflect-metadata';
import { CliFailure, type CliResult, EXIT_FAILED, EXIT_USAGE, Usage, UsageError } from './common/command-line';
import { IMPORT_USAGE, parseOptions } from './import/import-options';
import { KEYS_USAGE, parseKeys } from './cli/keys-options';
import { parseResolver, RESOLVER_USAGE } from './cli/resolver-options';
import { parsePrimaryName, PRIMARY_NAME_USAGE } from './cli/primary-name-options';
import { DEV_CHAIN_USAGE, parseDevChain } from './cli/dev-chain-options';

const USAGE = new Usage(
  [...KEYS_USAGE, ...IMPORT_USAGE, ...PRIMARY_NAME_USAGE, ...RESOLVER_USAGE, ...DEV_CHAIN_USAGE],
  'Every command answers --help. Exit codes: 0 done, 1 failed or refused (one line says what to do), 2 wrong usage.',
);

// Work loads once the arguments parse (NestJS, TypeORM, ethers: over a second); require: jest has no native import().
/* eslint-disable @typescript-eslint/no-require-imports */
const keys = async (argv: string[]) => {
  const args = parseKeys(argv);
  return (require('./cli/keys-command') as typeof import('./cli/keys-command')).runKeys(args);
};

const COMMANDS: Record<string, (argv: string[]) => Promise<CliResult>> = {
  keys,
  audit: keys,
  import: async (argv) => {
    const options = parseOptions(argv.slice(1));
    return (require('./import/import-command') as typeof import('./import/import-command')).runImport(options);
  },
  resolver: async (argv) => {
    const args = parseResolver(argv.slice(1));
    return (require('./cli/resolver-command') as typeof import('./cli/resolver-command')).runResolver(args);
  },
  'primary-name': async (argv) => {
    const args = parsePrimaryName(argv.slice(1));
    return (require('./cli/primary-name-command') as typeof import('./cli/primary-name-command')).runPrimaryName(args);
  },
  'dev-chain': async (argv) => {
    const args = parseDevChain(argv.slice(1));
    return (require('./cli/dev-chain-command') as typeof import('./cli/dev-chain-command')).runDevChain(args);
  },
};

/** Known failures print their one line; their classes load only on this path (errors.ts brings @nestjs/common). */
function isKnownFailure(e: unknown): boolean {
  const { DomainError } = require('./common/errors') as typeof import('./common/errors');
  const { ConfigError } = require('./config/app-config') as typeof import('./config/app-config');
  return e instanceof DomainError || e instanceof ConfigError;
}
/* eslint-enable @typescript-eslint/no-require-imports */

/** The command words before the first option (`resolver deploy --signer …` → resolver, deploy). */
function words(argv: string[]): string[] {
  const option = argv.findIndex((a) => a.startsWith('-'));
  return option === -1 ? argv : argv.slice(0, option);
}

/** Unknown commands are named before anything runs; --help anywhere prints the usage of the command path. */
async function run(argv: string[]): Promise<CliResult> {
  const path = USAGE.known(words(argv));
  if (argv.includes('--help') || argv.includes('-h')) {
    const unknown = words(argv)[path.length];
    if (unknown !== undefined && USAGE.commands(path).length > 0) throw new UsageError(`unknown command ${unknown}`);
    return { output: USAGE.text(path), exitCode: 0 };
  }
  const [group, sub] = argv;
  if (group === undefined) throw new UsageError('give a command');
  if (!COMMANDS[group]) throw new UsageError(`unknown command ${group}`);
  const subs = USAGE.commands([group]);
  if (subs.length > 0 && (sub === undefined || !subs.includes(sub))) {
    throw new UsageError(
      sub === undefined || sub.startsWith('-')
        ? `${group} needs a command: ${subs.join(', ')}`
        : `unknown command ${group} ${sub}`,
    );
  }
  return COMMANDS[group](argv);
}

const argv = process.argv.slice(2);
run(argv)
  .then(({ output, exitCode, verdict }) => {
    if (output) console.log(output);
    if (verdict) console.error(verdict);
    process.exitCode = exitCode;
  })
  .catch((e: unknown) => {
    if (e instanceof UsageError) {
      console.error(`${e.message}\n\n${USAGE.text(USAGE.known(words(argv)))}`);
      process.exit(EXIT_USAGE);
    }
    if (e instanceof CliFailure) {
      console.error(e.message);
      process.exit(e.exitCode);
    }
    console.error(isKnownFailure(e) ? (e as Error).message : `failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(EXIT_FAILED);
  });
