import 'reflect-metadata';
import { CliFailure, type CliResult, EXIT_FAILED, EXIT_USAGE, Usage, UsageError } from './common/command-line';
import { DomainError } from './common/errors';
import { ConfigError } from './config/app-config';
import { runImport } from './import/import-command';
import { IMPORT_USAGE } from './import/import-options';
import { KEYS_USAGE, runKeys } from './cli/keys-command';
import { RESOLVER_USAGE, runResolver } from './cli/resolver-command';
import { PRIMARY_NAME_USAGE, runPrimaryName } from './cli/primary-name-command';
import { DEV_CHAIN_USAGE, runDevChain } from './cli/dev-chain-command';

const USAGE = new Usage(
  [...KEYS_USAGE, ...IMPORT_USAGE, ...PRIMARY_NAME_USAGE, ...RESOLVER_USAGE, ...DEV_CHAIN_USAGE],
  'Every command answers --help. Exit codes: 0 done, 1 failed or refused, 2 wrong usage (3: the chain could not be read).',
);

const COMMANDS: Record<string, (argv: string[]) => Promise<CliResult>> = {
  keys: runKeys,
  audit: runKeys,
  import: (argv) => runImport(argv.slice(1)),
  resolver: (argv) => runResolver(argv.slice(1)),
  'primary-name': (argv) => runPrimaryName(argv.slice(1)),
  'dev-chain': (argv) => runDevChain(argv.slice(1)),
};

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
  .then(({ output, exitCode }) => {
    if (output) console.log(output);
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
    const known = e instanceof DomainError || e instanceof ConfigError;
    console.error(known ? (e as Error).message : `failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(EXIT_FAILED);
  });
