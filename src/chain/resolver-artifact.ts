import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InterfaceAbi } from 'ethers';

export interface ContractArtifact {
  abi: InterfaceAbi;
  bytecode: string;
  compiler: { version: string; settings: unknown };
}

/** A committed compiled contract, e.g. `dev/NameWrapper` (contracts/ is two levels up from src/chain and dist/chain). */
export function committedArtifact(name: string): ContractArtifact {
  return JSON.parse(readFileSync(join(__dirname, '..', '..', 'contracts', `${name}.json`), 'utf8')) as ContractArtifact;
}

/** contracts/OffchainResolver.json, the committed compiled resolver. */
export function resolverArtifact(): ContractArtifact {
  return committedArtifact('OffchainResolver');
}
