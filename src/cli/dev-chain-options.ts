import { parseCommandLine, UsageError } from '../common/command-line';

export const DEV_CHAIN_USAGE = [
  [
    'dev-chain',
    `  dev-chain [--port PORT] [--chain-id ID] [--parent NAME] [--signer ADDRESS]
      Starts a local chain in memory on 127.0.0.1:PORT (default 8545, chain id 31337) with ENS's registry, a .eth
      registrar, a Name Wrapper and the reverse registrar; registers NAME (default oak.eth) to a funded test key and
      sets its resolver to this project's OffchainResolver, deployed for PUBLIC_URL's gateway and trusting the
      service's signer (--signer, else the key of CCIP_SIGNER_KEY, else the development key in DATA_DIR that the
      service uses). Prints the settings to start the service with; runs until Ctrl-C, and the chain goes with it.
      Needs the devDependencies (npm install).`,
  ],
] as const;

const OPTIONS = {
  port: { type: 'string' },
  'chain-id': { type: 'string' },
  parent: { type: 'string' },
  signer: { type: 'string' },
} as const;

function integer(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}`);
  return n;
}

/** `dev-chain` as given; the parent name and the signer need ethers, so the command checks them once loaded. */
export interface DevChainArgs {
  port: number;
  chainId: number;
  parent?: string;
  signer?: string;
}

export function parseDevChain(argv: string[]): DevChainArgs {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const port = integer(values.port ?? '8545', '--port', 0, 65535);
  const chainId = integer(values['chain-id'] ?? '31337', '--chain-id', 1, 4_294_967_295);
  return { port, chainId, parent: values.parent, signer: values.signer };
}
