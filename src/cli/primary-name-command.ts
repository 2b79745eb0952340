import { CliFailure, type CliResult, parseCommandLine, UsageError } from '../common/command-line';
import { ValidationFailedError } from '../common/errors';
import { AppValidationPipe } from '../common/validation/validation.pipe';
import { loadConfig } from '../config/app-config';
import { PrimaryNameParams } from '../primary-names/dto/primary-name-params.dto';
import { PrimaryNameSetupQuery } from '../primary-names/dto/setup-query.dto';
import { reverseSetup } from '../primary-names/reverse-setup';

export const PRIMARY_NAME_USAGE = [
  [
    'primary-name prepare',
    `  primary-name prepare ADDRESS --resolver ADDRESS
      Prints the one transaction ADDRESS sends before choosing its primary name here, unsigned, as JSON
      {to, data, chainId, note}: claimWithResolver on ENS_REVERSE_REGISTRAR_ADDRESS (chain ENS_CHAIN_ID), the
      same answer as GET /api/v1/primary-names/ADDRESS/setup?resolver=ADDRESS.`,
  ],
] as const;

/** The value the route's own validation hands over, or an Error naming every bad field. */
async function checked<T extends object>(cls: new () => T, plain: object, type: 'param' | 'query'): Promise<T> {
  try {
    return (await new AppValidationPipe().transform(plain, { type, metatype: cls })) as T;
  } catch (e) {
    if (!(e instanceof ValidationFailedError)) throw e;
    throw new CliFailure((e.errors ?? []).map((f) => `${f.field}: ${f.message}`).join('\n'));
  }
}

/** `primary-name prepare`: needs no database and no chain, only the ENS_* settings. */
export async function runPrimaryName(argv: string[]): Promise<CliResult> {
  const { values, positionals } = parseCommandLine(argv, { resolver: { type: 'string' } });
  const [, raw, extra] = positionals;
  if (raw === undefined) throw new UsageError('primary-name prepare needs the ADDRESS');
  if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
  const { address } = await checked(PrimaryNameParams, { address: raw }, 'param');
  const { resolver } = await checked(PrimaryNameSetupQuery, { resolver: values.resolver }, 'query');
  return { output: JSON.stringify(reverseSetup(address, resolver, loadConfig().ens), null, 2), exitCode: 0 };
}
