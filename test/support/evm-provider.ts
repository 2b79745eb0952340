/**
 * An ethers v6 provider on the in-process EVM of src/dev-chain/evm.ts, through the EIP-1193 object of
 * evm-rpc.ts, so that ethers' own ENS and CCIP-Read machinery (EnsResolver, OffchainLookup handling, the gateway
 * fetch) runs unchanged against contracts in memory.
 */
import { BrowserProvider, EnsPlugin, Network } from 'ethers';
import type { EvmEip1193 } from '../../src/dev-chain/evm-rpc';

export { EvmEip1193 } from '../../src/dev-chain/evm-rpc';

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
