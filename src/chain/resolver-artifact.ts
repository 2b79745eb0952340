import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InterfaceAbi } from 'ethers';

export interface ContractArtifact {
  abi: InterfaceAbi;
  bytecode: string;
  compiler: { version: string; settings: unknown };
}

/** contracts/OffchainResolver.json, the committed compiled resolver (two levels up from src/chain and dist/chain). */
export function resolverArtifact(): ContractArtifact {
  return JSON.parse(
    readFileSync(join(__dirname, '..', '..', 'contracts', 'OffchainResolver.json'), 'utf8'),
  ) as ContractArtifact;
}
