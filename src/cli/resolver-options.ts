import { parseCommandLine, UsageError } from '../common/command-line';

export const RESOLVER_USAGE = [
  [
    'resolver deploy',
    `  resolver deploy --url-template URL --signer ADDRESS [--signer ADDRESS …] [--owner ADDRESS]
      Deploys contracts/OffchainResolver.json (the gateway's URL template and signers; --owner defaults to the sender,
      required with --print) and prints its address.`,
  ],
  [
    'resolver use',
    `  resolver use PARENT --resolver ADDRESS
      Sets PARENT's resolver through the ENS registry, or the Name Wrapper when the name is wrapped, once ADDRESS
      holds a contract that supports ENSIP-10 (wildcard resolution).`,
  ],
  ['resolver url', '  resolver url --resolver ADDRESS --url-template URL        moves the gateway'],
  [
    'resolver signers',
    "  resolver signers --resolver ADDRESS [--add ADDRESS …] [--remove ADDRESS …]   rotates the gateway's signer",
  ],
  [
    'resolver check',
    `  resolver check PARENT [--gateway ORIGIN]
      The five checks (registry, wildcard, gateway, signer, answer), one line each; --gateway is the service's
      public origin (default PUBLIC_URL).`,
  ],
  [
    'resolver',
    `  The chain: --rpc-url URL (default ENS_RPC_URL), the ENS contracts from ENS_REGISTRY_ADDRESS and
  ENS_NAME_WRAPPER_ADDRESS. Commands that write take --private-key-file FILE (a 0x-prefixed hex key) to send, or
  --print for the unsigned transaction as JSON {to, data, value, chainId} (for a hardware wallet or a Safe).
  --json prints results as JSON. Exit codes: 0 done (check: every step holds), 1 refused, a check step failed or
  the chain could not be read, 2 wrong usage (told before the chain is asked anything).`,
  ],
] as const;

const OPTIONS = {
  'rpc-url': { type: 'string' },
  'private-key-file': { type: 'string' },
  print: { type: 'boolean' },
  json: { type: 'boolean' },
  'url-template': { type: 'string' },
  signer: { type: 'string', multiple: true },
  owner: { type: 'string' },
  resolver: { type: 'string' },
  add: { type: 'string', multiple: true },
  remove: { type: 'string', multiple: true },
  gateway: { type: 'string' },
} as const;

/** `resolver …` as given: addresses, URLs and the chain are checked by the command, once it has loaded. */
export interface ResolverArgs {
  command: string;
  /** The parent name of `use` and `check`. */
  parent?: string;
  values: ReturnType<typeof parseCommandLine<typeof OPTIONS>>['values'];
}

/** The commands whose one argument is the parent name; the others take options only. */
const WITH_PARENT = new Set(['use', 'check']);

/** The command line of `resolver …` (the command word first); a missing or extra argument is named. */
export function parseResolver(argv: string[]): ResolverArgs {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const [command, ...rest] = positionals;
  const wanted = WITH_PARENT.has(command) ? 1 : 0;
  if (rest.length < wanted) throw new UsageError(`resolver ${command} needs the parent name`);
  if (rest.length > wanted) throw new UsageError(`unexpected argument ${rest[wanted]}`);
  return { command, parent: rest[0], values };
}
