// Compiles the Solidity the project ships (contracts/*.sol) with the pinned solc into contracts/<Name>.json
// ({abi, bytecode, compiler: {version, settings}}). `--check` compiles again and fails when the committed
// artifact differs in any byte, so the artifact always is what the source compiles to. contracts/dev/ holds the
// stand-ins of ENS's registrar and Name Wrapper that `npm run cli -- dev-chain` deploys (and the tests use).
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { basename, join } = require('node:path');
const solc = require('solc');

const root = join(__dirname, '..');
const CONTRACTS = ['OffchainResolver', 'dev/BaseRegistrar', 'dev/NameWrapper'];
// cancun: an EVM version Ethereum mainnet and Sepolia run. Changing a setting changes the committed artifact.
const SETTINGS = {
  evmVersion: 'cancun',
  optimizer: { enabled: true, runs: 200 },
  metadata: { bytecodeHash: 'ipfs' },
};

/** Imports resolve from node_modules (@openzeppelin/contracts), as a Hardhat or Foundry project would. */
function findImports(path) {
  const file = join(root, 'node_modules', path);
  return existsSync(file) ? { contents: readFileSync(file, 'utf8') } : { error: `not found: ${path}` };
}

function compile(name) {
  const source = `contracts/${name}.sol`;
  const input = {
    language: 'Solidity',
    sources: { [source]: { content: readFileSync(join(root, source), 'utf8') } },
    settings: { ...SETTINGS, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const contract = output.contracts[source][basename(name)];
  const artifact = {
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
    compiler: { version: solc.version(), settings: SETTINGS },
  };
  return `${JSON.stringify(artifact, null, 2)}\n`;
}

const check = process.argv.includes('--check');
let stale = 0;
for (const name of CONTRACTS) {
  const file = join(root, 'contracts', `${name}.json`);
  const fresh = compile(name);
  if (!check) {
    writeFileSync(file, fresh);
    console.log(`contracts/${name}.json written (solc ${solc.version()})`);
  } else if (!existsSync(file) || readFileSync(file, 'utf8') !== fresh) {
    console.error(`contracts/${name}.json is not what contracts/${name}.sol compiles to: run npm run contracts:build`);
    stale++;
  } else {
    console.log(`contracts/${name}.json matches its source`);
  }
}
if (stale > 0) process.exit(1);
