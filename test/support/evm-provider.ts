/**
 * An ethers v6 provider on the in-process EVM of test/contracts/evm.ts, through a small EIP-1193 object: enough of
 * the JSON-RPC surface for reads (eth_chainId, eth_blockNumber, eth_call), so that ethers' own ENS and CCIP-Read
 * machinery (EnsResolver, OffchainLookup handling, the gateway fetch) runs unchanged against contracts in memory.
 */
import { BrowserProvider, type Eip1193Provider, EnsPlugin, Network, toQuantity, ZeroAddress } from 'ethers';
import type { Evm } from '../contracts/evm';

interface RpcTransaction {
  from?: string;
  to?: string;
  data?: string;
  input?: string;
}

export class EvmEip1193 implements Eip1193Provider {
  /** Seconds added to the wall clock for the timestamp of the blocks calls run in: tests move time forward. */
  clockOffsetSeconds = 0;

  constructor(
    private readonly evm: Evm,
    private readonly chain: number,
    readonly chainId: number,
  ) {}

  now(): number {
    return Math.floor(Date.now() / 1000) + this.clockOffsetSeconds;
  }

  async request({
    method,
    params,
  }: {
    method: string;
    params?: unknown[] | Record<string, unknown>;
  }): Promise<unknown> {
    switch (method) {
      case 'eth_chainId':
        return toQuantity(this.chainId);
      case 'net_version':
        return String(this.chainId);
      case 'eth_blockNumber':
        return '0x1';
      case 'eth_call': {
        const [tx] = params as [RpcTransaction];
        if (!tx.to) throw Object.assign(new Error('eth_call without a target'), { code: -32602 });
        const result = await this.evm.call(this.chain, {
          from: tx.from ?? ZeroAddress,
          to: tx.to,
          data: tx.data ?? tx.input ?? '0x',
          timestamp: this.now(),
        });
        if (result.success) return result.returnData;
        // What a node answers for a revert: code 3 with the revert data, which ethers turns into CALL_EXCEPTION.
        throw Object.assign(new Error('execution reverted'), { code: 3, data: result.returnData });
      }
      default:
        throw Object.assign(new Error(`${method} is not served by the in-process EVM`), { code: 4200 });
    }
  }
}

/**
 * A provider whose network names `registry` as its ENS registry (ethers' EnsPlugin), with CCIP-Read enabled; with
 * a Universal Resolver, ethers resolves through it, as on mainnet (ethers >= 6.17), instead of walking the registry.
 */
export function evmProvider(shim: EvmEip1193, registry: string, universalResolver?: string): BrowserProvider {
  const network = new Network('in-process', shim.chainId);
  network.attachPlugin(new EnsPlugin(registry, shim.chainId, universalResolver));
  // No response caching: tests move the clock between identical calls.
  return new BrowserProvider(shim, network, { staticNetwork: network, cacheTimeout: -1 });
}
