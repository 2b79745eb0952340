/**
 * An in-memory Ethereum execution environment (@ethereumjs/vm) driven over stdin/stdout, one JSON request per
 * line. It runs as its own Node process because @ethereumjs/* v10 depend on ESM-only @noble packages, which
 * Node's require loads natively but jest's CommonJS runtime cannot; the tests talk to it through evm.ts.
 *
 * Requests: {id, op: 'chain', chainId} → {chain}; {id, op: 'deploy', chain, from, data} → {address};
 * {id, op: 'call', chain, from, to, data, value?, timestamp} → {success, returnData, error?, logs}.
 */
import { createInterface } from 'node:readline';
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import {
  bytesToHex,
  createAddressFromString,
  createZeroAddress,
  hexToBytes,
  type PrefixedHexString,
} from '@ethereumjs/util';
import { createVM, type VM } from '@ethereumjs/vm';

interface Request {
  id: number;
  op: 'chain' | 'deploy' | 'call';
  chainId?: number;
  chain?: number;
  from?: string;
  to?: string;
  data?: string;
  value?: string;
  timestamp?: number;
}

const chains: VM[] = [];

function block(timestamp: number): NonNullable<Parameters<VM['evm']['runCall']>[0]['block']> {
  return {
    header: {
      number: 1n,
      coinbase: createZeroAddress(),
      timestamp: BigInt(timestamp),
      difficulty: 0n,
      prevRandao: new Uint8Array(32),
      gasLimit: 30_000_000n,
      baseFeePerGas: 0n,
      getBlobGasPrice: () => 1n,
    },
  };
}

async function handle(r: Request): Promise<Record<string, unknown>> {
  if (r.op === 'chain') {
    const common = createCustomCommon({ chainId: r.chainId! }, Mainnet, { hardfork: Hardfork.Prague });
    chains.push(await createVM({ common }));
    return { chain: chains.length - 1 };
  }
  const vm = chains[r.chain!];
  if (!vm) throw new Error(`no chain ${r.chain}`);
  const result = await vm.evm.runCall({
    caller: createAddressFromString(r.from!),
    origin: createAddressFromString(r.from!),
    to: r.op === 'call' ? createAddressFromString(r.to!) : undefined,
    data: hexToBytes(r.data! as PrefixedHexString),
    value: BigInt(r.value ?? '0'),
    gasLimit: 10_000_000n,
    skipBalance: true,
    block: block(r.timestamp ?? Math.floor(Date.now() / 1000)),
  });
  const { execResult } = result;
  if (r.op === 'deploy') {
    if (execResult.exceptionError || !result.createdAddress) {
      throw new Error(`deployment failed: ${execResult.exceptionError?.error} ${bytesToHex(execResult.returnValue)}`);
    }
    return { address: result.createdAddress.toString() };
  }
  return {
    success: execResult.exceptionError === undefined,
    error: execResult.exceptionError?.error,
    returnData: bytesToHex(execResult.returnValue),
    logs: (execResult.logs ?? []).map(([address, topics, data]) => ({
      address: bytesToHex(address),
      topics: topics.map((t) => bytesToHex(t)),
      data: bytesToHex(data),
    })),
  };
}

const lines = createInterface({ input: process.stdin });
let queue = Promise.resolve();
lines.on('line', (line) => {
  // One request at a time, in order, so state changes apply in the order the test sent them.
  queue = queue.then(async () => {
    const r = JSON.parse(line) as Request;
    try {
      process.stdout.write(`${JSON.stringify({ id: r.id, result: await handle(r) })}\n`);
    } catch (e) {
      process.stdout.write(`${JSON.stringify({ id: r.id, error: (e as Error).message })}\n`);
    }
  });
});
lines.on('close', () => void queue.then(() => process.exit(0)));
