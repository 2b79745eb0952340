/**
 * `npm run cli -- dev-chain`: ENS and this project's resolver on an in-memory chain served on loopback, a demo
 * parent held by a well-known funded test key, so the portal, the claim page, `resolver check` and primary names
 * can be tried on one machine.
 */
import { id, namehash, parseEther, Wallet } from 'ethers';
import { jsonRpcProvider } from '../chain/json-rpc';
import { resolverArtifact } from '../chain/resolver-artifact';
import { deployContract, deployEns, ensSettings, mined } from './ens-deployment';
import { Evm } from './evm';
import { RpcServer } from './rpc-server';

/** Hardhat's and Anvil's first account: every local wallet setup knows it, and no real chain must ever see it. */
export const DEV_PRIVATE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const DEV_BALANCE = parseEther('10000');
const YEAR = 365 * 86_400;

export interface DevChainOptions {
  port: number;
  chainId: number;
  /** A `.eth` second-level name, normalised. */
  parent: string;
  /** The gateway signer the resolver trusts, and the gateway's URL template. */
  signer: string;
  urlTemplate: string;
}

export interface DevChain {
  url: string;
  /** The service's ENS_* settings for this chain. */
  settings: Record<string, string>;
  holder: Wallet;
  balance: bigint;
  resolver: string;
  expires: number;
  close(): Promise<void>;
}

export async function startDevChain(o: DevChainOptions): Promise<DevChain> {
  const rpc = await RpcServer.start(o.chainId, Evm.start(), undefined, o.port);
  const provider = jsonRpcProvider(rpc.url, o.chainId);
  try {
    const holder = new Wallet(DEV_PRIVATE_KEY, provider);
    await rpc.evm.fund(rpc.chain, holder.address, DEV_BALANCE);
    const ens = await deployEns(holder);
    const expires = Math.floor(Date.now() / 1000) + YEAR;
    const label = o.parent.slice(0, -'.eth'.length);
    await mined(ens.registrar.register(BigInt(id(label)), holder.address, expires));
    const resolver = await deployContract(holder, resolverArtifact(), o.urlTemplate, [o.signer], holder.address);
    await mined(ens.registry.setResolver(namehash(o.parent), await resolver.getAddress()));
    return {
      url: rpc.url,
      settings: await ensSettings(rpc.url, o.chainId, ens),
      holder: new Wallet(DEV_PRIVATE_KEY),
      balance: DEV_BALANCE,
      resolver: await resolver.getAddress(),
      expires,
      close: () => rpc.close(),
    };
  } catch (e) {
    await rpc.close();
    throw e;
  } finally {
    provider.destroy();
  }
}
