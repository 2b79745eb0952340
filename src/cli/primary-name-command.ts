import { CliFailure, type CliResult } from '../common/command-line';
import { ValidationFailedError } from '../common/errors';
import { AppValidationPipe } from '../common/validation/validation.pipe';
import { loadConfig } from '../config/app-config';
import { PrimaryNameParams } from '../primary-names/dto/primary-name-params.dto';
import { PrimaryNameSetupQuery } from '../primary-names/dto/setup-query.dto';
import { reverseSetup } from '../primary-names/reverse-setup';
import type { PrimaryNameArgs } from './primary-name-options';

/** The value the route's own validation hands over, or an Error naming every bad field. */
async function checked<T extends object>(cls: new () => T, plain: object, type: 'param' | 'query'): Promise<T> {
  try {
    return (await new AppValidationPipe().transform(plain, { type, metatype: cls })) as T;
  } catch (e) {
    if (!(e instanceof ValidationFailedError)) throw e;
    throw new CliFailure((e.errors ?? []).map((f) => `${f.field}: ${f.message}`).join('\n'));
  }
}

/** `primary-name prepare` (parsed by parsePrimaryName): needs no database and no chain, only the ENS_* settings. */
export async function runPrimaryName(args: PrimaryNameArgs): Promise<CliResult> {
  const { address } = await checked(PrimaryNameParams, { address: args.address }, 'param');
  const { resolver } = await checked(PrimaryNameSetupQuery, { resolver: args.resolver }, 'query');
  return { output: JSON.stringify(reverseSetup(address, resolver, loadConfig().ens), null, 2), exitCode: 0 };
}
