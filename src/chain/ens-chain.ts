import { EnsPlugin, isError, type JsonRpcProvider, namehash, Network, ZeroAddress } from 'ethers';
import { ChainUnavailableError } from './chain.errors';
import { ERC165, NAME_WRAPPER, REGISTRY } from './ens-abis';
import { jsonRpcProvider } from './json-rpc';

export interface EnsChainOptions {
  rpcUrl: string;
  registry: string;
  nameWrapper: string;
  /** Milliseconds one JSON-RPC request may take. */
  timeoutMs?: number;
}

/** Who holds a name: the registry's owner, and when that is the Name Wrapper, the wrapped owner and fuses. */
export interface NameHolder {
  registryOwner: string;
  wrapped: boolean;
  owner: string;
  fuses: number;
  expiry: bigint;
}

/** An eth_call's outcome: the return data, or the revert data (a failed transport throws instead). */
export type CallOutcome = { ok: true; data: string } | { ok: false; revert: string };

/** Anything but a contract's revert means the chain could not be read. */
function unavailable(e: unknown, url: string): ChainUnavailableError {
  if (e instanceof ChainUnavailableError) return e;
  const reason = isError(e, 'TIMEOUT') ? 'did not answer in time' : 'failed';
  return new ChainUnavailableError(
    `The Ethereum JSON-RPC endpoint ${new URL(url).origin} ${reason}; try again shortly`,
  );
}

/**
 * Reads ENS on one chain through a JSON-RPC endpoint (ethers v6), every request bounded in time: the registry's
 * resolver and owner, the Name Wrapper's record, ERC-165 checks and plain eth_calls. A contract's revert is an
 * answer; a transport failure or a timeout is a ChainUnavailableError.
 */
export class EnsChain {
  private constructor(
    readonly provider: JsonRpcProvider,
    readonly chainId: number,
    readonly registry: string,
    readonly nameWrapper: string,
    private readonly url: string,
  ) {}

  /** A chain whose id the caller knows (the service's ENS_CHAIN_ID). */
  static at(options: EnsChainOptions & { chainId: number }): EnsChain {
    const network = new Network('ens', options.chainId);
    network.attachPlugin(new EnsPlugin(options.registry, options.chainId));
    const provider = jsonRpcProvider(options.rpcUrl, network, options.timeoutMs);
    return new EnsChain(provider, options.chainId, options.registry, options.nameWrapper, options.rpcUrl);
  }

  /** A chain whose id is asked of the endpoint (the CLI's --rpc-url). */
  static async connect(options: EnsChainOptions): Promise<EnsChain> {
    const probe = jsonRpcProvider(options.rpcUrl, undefined, options.timeoutMs);
    try {
      const chainId = Number(await probe.send('eth_chainId', []));
      return EnsChain.at({ ...options, chainId });
    } catch (e) {
      throw unavailable(e, options.rpcUrl);
    } finally {
      probe.destroy();
    }
  }

  /** An eth_call at the latest block; `to` null runs `data` as deployless code (ERC-6492's validator). */
  async call(to: string | null, data: string): Promise<CallOutcome> {
    try {
      return { ok: true, data: await this.provider.call({ to, data }) };
    } catch (e) {
      if (isError(e, 'CALL_EXCEPTION')) return { ok: false, revert: e.data ?? '0x' };
      throw unavailable(e, this.url);
    }
  }

  /** Whether the address holds contract code. */
  async hasCode(address: string): Promise<boolean> {
    try {
      return (await this.provider.getCode(address)) !== '0x';
    } catch (e) {
      throw unavailable(e, this.url);
    }
  }

  /** The latest block's timestamp in Unix seconds: the chain's clock, which decides expiries on chain. */
  async now(): Promise<bigint> {
    try {
      const block = await this.provider.getBlock('latest');
      if (block) return BigInt(block.timestamp);
    } catch (e) {
      throw unavailable(e, this.url);
    }
    throw new ChainUnavailableError(`The Ethereum JSON-RPC endpoint ${new URL(this.url).origin} has no latest block`);
  }

  /** The resolver the registry names for `name` (wrapped or not), or null. */
  async resolverOf(name: string): Promise<string | null> {
    const resolver = await this.read(this.registry, REGISTRY, 'resolver', [namehash(name)]);
    return resolver === ZeroAddress ? null : resolver;
  }

  async holder(name: string): Promise<NameHolder> {
    const node = namehash(name);
    const registryOwner = await this.read(this.registry, REGISTRY, 'owner', [node]);
    if (registryOwner.toLowerCase() !== this.nameWrapper.toLowerCase()) {
      return { registryOwner, wrapped: false, owner: registryOwner, fuses: 0, expiry: 0n };
    }
    const out = await this.call(this.nameWrapper, NAME_WRAPPER.encodeFunctionData('getData', [BigInt(node)]));
    try {
      if (out.ok) {
        const [owner, fuses, expiry] = NAME_WRAPPER.decodeFunctionResult('getData', out.data);
        return { registryOwner, wrapped: true, owner: owner as string, fuses: Number(fuses), expiry: expiry as bigint };
      }
    } catch {
      // Said below.
    }
    throw this.notEns(this.nameWrapper, 'getData');
  }

  /** ERC-165: false for a contract that refuses or does not implement supportsInterface, and for no contract. */
  async supportsInterface(address: string, interfaceId: string): Promise<boolean> {
    const out = await this.call(address, ERC165.encodeFunctionData('supportsInterface', [interfaceId]));
    if (!out.ok || out.data.length !== 66) return false;
    return BigInt(out.data) === 1n;
  }

  /** An eth_call with EIP-3668 CCIP-Read followed by ethers, as a wallet resolves. */
  async callWithCcipRead(to: string, data: string): Promise<string> {
    try {
      return await this.provider.call({ to, data, enableCcipRead: true });
    } catch (e) {
      if (isError(e, 'CALL_EXCEPTION')) throw e;
      throw unavailable(e, this.url);
    }
  }

  destroy(): void {
    this.provider.destroy();
  }

  private async read(to: string, abi: typeof REGISTRY, fn: string, args: unknown[]): Promise<string> {
    const out = await this.call(to, abi.encodeFunctionData(fn, args));
    try {
      if (out.ok) return abi.decodeFunctionResult(fn, out.data)[0] as string;
    } catch {
      // No contract there, or not that one: said below.
    }
    throw this.notEns(to, fn);
  }

  private notEns(to: string, fn: string): ChainUnavailableError {
    return new ChainUnavailableError(
      `${to} does not answer ${fn}() as the ENS contract of chain ${this.chainId}: check ENS_RPC_URL and the ENS_* addresses`,
    );
  }
}
