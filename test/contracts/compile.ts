import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import solc from 'solc';

const ROOT = join(__dirname, '..', '..');

export interface Compiled {
  abi: unknown[];
  bytecode: string;
}

/** Imports resolve from node_modules (@openzeppelin/contracts), as a Hardhat or Foundry project would. */
function findImports(path: string): { contents: string } | { error: string } {
  const file = join(ROOT, 'node_modules', path);
  return existsSync(file) ? { contents: readFileSync(file, 'utf8') } : { error: `not found: ${path}` };
}

/** Compiles one contract of test/contracts with solc-js (standard JSON), failing on any compiler error. */
export function compileContract(fileName: string, contractName: string): Compiled {
  const input = {
    language: 'Solidity',
    sources: { [fileName]: { content: readFileSync(join(__dirname, fileName), 'utf8') } },
    settings: {
      evmVersion: 'prague',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const contract = output.contracts[fileName][contractName];
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}
