/**
 * In-memory Ethereum chains (@ethereumjs/vm, a devDependency) in this process: the tests' chains and
 * `npm run cli -- dev-chain`. @ethereumjs v10 depends on ESM-only @noble packages; Node >= 20.19 requires them,
 * and under jest test/support/jest-resolver.js and the transform patterns load their ESM builds.
 */
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import {
  Account,
  bytesToHex,
  createAddressFromString,
  createZeroAddress,
  hexToBytes,
  type PrefixedHexString,
} from '@ethereumjs/util';
import { createVM, type VM } from '@ethereumjs/vm';

export interface CallResult {
  success: boolean;
  error?: string;
  returnData: string;
  logs: { address: string; topics: string[]; data: string }[];
  /** The new contract's address, when the transaction had no `to`. */
  createdAddress?: string;
  gasUsed: bigint;
}

export interface EvmTx {
  from: string;
  to?: string;
  data: string;
  value?: bigint;
  timestamp: number;
}

type Block = NonNullable<Parameters<VM['evm']['runCall']>[0]['block']>;

function block(timestamp: number): Block {
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

function outcome(result: Awaited<ReturnType<VM['evm']['runCall']>>): CallResult {
  const { execResult } = result;
  return {
    success: execResult.exceptionError === undefined,
    error: execResult.exceptionError?.error,
    returnData: bytesToHex(execResult.returnValue),
    logs: (execResult.logs ?? []).map(([address, topics, data]) => ({
      address: bytesToHex(address),
      topics: topics.map((t) => bytesToHex(t)),
      data: bytesToHex(data),
    })),
    createdAddress: result.createdAddress?.toString(),
    gasUsed: execResult.executionGasUsed,
  };
}

export class Evm {
  private readonly chains: VM[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  static start(): Evm {
    return new Evm();
  }

  /** One operation at a time, in the order the test asked, so state changes apply in that order. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A fresh chain with this chain id (what the CHAINID opcode and so EIP-712 domains see) and EVM version. */
  chain(chainId: number, hardfork: Hardfork = Hardfork.Prague): Promise<number> {
    return this.serial(async () => {
      const common = createCustomCommon({ chainId }, Mainnet, { hardfork });
      this.chains.push(await createVM({ common }));
      return this.chains.length - 1;
    });
  }

  deploy(chain: number, from: string, data: string): Promise<string> {
    return this.serial(async () => {
      const result = await this.run(chain, { from, data, timestamp: Math.floor(Date.now() / 1000) });
      if (result.execResult.exceptionError || !result.createdAddress) {
        const reason = `${result.execResult.exceptionError?.error} ${bytesToHex(result.execResult.returnValue)}`;
        throw new Error(`deployment failed: ${reason}`);
      }
      return result.createdAddress.toString();
    });
  }

  /** Runs a transaction from `from` in a block with this timestamp (no `to`: a deployment); state changes persist. */
  call(chain: number, tx: EvmTx): Promise<CallResult> {
    return this.serial(async () => outcome(await this.run(chain, tx)));
  }

  /** Runs a transaction and then forgets its state changes (the caller's nonce included): eth_call, eth_estimateGas. */
  simulate(chain: number, tx: EvmTx): Promise<CallResult> {
    return this.serial(async () => {
      const journal = this.vm(chain).evm.journal;
      await journal.checkpoint();
      try {
        return outcome(await this.run(chain, tx));
      } finally {
        await journal.revert();
      }
    });
  }

  /** An account's nonce, balance and code as the chain holds them now. */
  account(chain: number, address: string): Promise<{ nonce: bigint; balance: bigint; code: string }> {
    return this.serial(async () => {
      const state = this.vm(chain).stateManager;
      const at = createAddressFromString(address);
      const account = await state.getAccount(at);
      return {
        nonce: account?.nonce ?? 0n,
        balance: account?.balance ?? 0n,
        code: bytesToHex(await state.getCode(at)),
      };
    });
  }

  /** Sets an account's balance, so that a wallet (which checks it before sending) can pay for gas. */
  fund(chain: number, address: string, balance: bigint): Promise<void> {
    return this.serial(async () => {
      const state = this.vm(chain).stateManager;
      const at = createAddressFromString(address);
      const account = (await state.getAccount(at)) ?? new Account();
      account.balance = balance;
      await state.putAccount(at, account);
    });
  }

  async stop(): Promise<void> {
    await this.queue;
  }

  private vm(chain: number): VM {
    const vm = this.chains[chain];
    if (!vm) throw new Error(`no chain ${chain}`);
    return vm;
  }

  private run(chain: number, tx: EvmTx) {
    return this.vm(chain).evm.runCall({
      caller: createAddressFromString(tx.from),
      origin: createAddressFromString(tx.from),
      to: tx.to ? createAddressFromString(tx.to) : undefined,
      data: hexToBytes(tx.data as PrefixedHexString),
      value: tx.value ?? 0n,
      gasLimit: 10_000_000n,
      skipBalance: true,
      block: block(tx.timestamp),
    });
  }
}
