import { parseCommandLine, UsageError } from '../common/command-line';

export const PRIMARY_NAME_USAGE = [
  [
    'primary-name prepare',
    `  primary-name prepare ADDRESS --resolver ADDRESS
      Prints the one transaction ADDRESS sends before choosing its primary name here, unsigned, as JSON
      {to, data, chainId, note}: claimWithResolver on ENS_REVERSE_REGISTRAR_ADDRESS (chain ENS_CHAIN_ID), the
      same answer as GET /api/v1/primary-names/ADDRESS/setup?resolver=ADDRESS.`,
  ],
] as const;

/** `primary-name prepare` as given: both addresses are checked by the route's own DTOs, once they have loaded. */
export interface PrimaryNameArgs {
  address: string;
  resolver: string;
}

export function parsePrimaryName(argv: string[]): PrimaryNameArgs {
  const { values, positionals } = parseCommandLine(argv, { resolver: { type: 'string' } });
  const [, address, extra] = positionals;
  if (address === undefined) throw new UsageError('primary-name prepare needs the ADDRESS');
  if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
  if (values.resolver === undefined) throw new UsageError('primary-name prepare needs --resolver ADDRESS');
  return { address, resolver: values.resolver };
}
