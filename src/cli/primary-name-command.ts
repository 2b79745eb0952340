import type { CliResult } from '../common/command-line';
import { loadConfig } from '../config/app-config';
import { PrimaryNameParams } from '../primary-names/dto/primary-name-params.dto';
import { PrimaryNameSetupQuery } from '../primary-names/dto/setup-query.dto';
import { reverseSetup } from '../primary-names/reverse-setup';
import type { PrimaryNameArgs } from './primary-name-options';
import { validated } from './route-validation';

/** `primary-name prepare` (parsed by parsePrimaryName): needs no database and no chain, only the ENS_* settings. */
export async function runPrimaryName(args: PrimaryNameArgs): Promise<CliResult> {
  const { address } = await validated(PrimaryNameParams, { address: args.address }, 'param', { address: 'ADDRESS' });
  const { resolver } = await validated(PrimaryNameSetupQuery, { resolver: args.resolver }, 'query', {
    resolver: '--resolver',
  });
  return { output: JSON.stringify(reverseSetup(address, resolver, loadConfig().ens), null, 2), exitCode: 0 };
}
