import { readFileSync } from 'node:fs';
import { CliFailure } from '../common/command-line';
import { AbiCoder, concat, getAddress, Interface, namehash, Wallet } from 'ethers';
import { CANNOT_SET_RESOLVER, NAME_WRAPPER, REGISTRY } from '../chain/ens-abis';
import type { EnsChain } from '../chain/ens-chain';
import { resolverArtifact } from '../chain/resolver-artifact';

/** A transaction as a hardware wallet or a multisig takes it: `to` null for a deployment, value in wei. */
export interface UnsignedTx {
  to: string | null;
  data: string;
  value: string;
  chainId: number;
}

/** A refusal the operator can act on; the CLI prints it and exits 1. */
export class RefusedError extends CliFailure {}

const resolverAbi = () => new Interface(resolverArtifact().abi);

export function deployTx(chain: EnsChain, urlTemplate: string, signers: string[], owner: string): UnsignedTx {
  const args = AbiCoder.defaultAbiCoder().encode(['string', 'address[]', 'address'], [urlTemplate, signers, owner]);
  return { to: null, data: concat([resolverArtifact().bytecode, args]), value: '0', chainId: chain.chainId };
}

export function setUrlTx(chain: EnsChain, resolver: string, urlTemplate: string): UnsignedTx {
  const data = resolverAbi().encodeFunctionData('setUrl', [urlTemplate]);
  return { to: getAddress(resolver), data, value: '0', chainId: chain.chainId };
}

export function setSignersTx(chain: EnsChain, resolver: string, add: string[], remove: string[]): UnsignedTx {
  const data = resolverAbi().encodeFunctionData('setSigners', [add, remove]);
  return { to: getAddress(resolver), data, value: '0', chainId: chain.chainId };
}

/**
 * Sets a parent's resolver where its record lives: the registry, or the Name Wrapper when it holds the name
 * (refused when the wrapped name's CANNOT_SET_RESOLVER fuse is burnt: no transaction could succeed).
 */
export async function useTx(
  chain: EnsChain,
  parentName: string,
  resolver: string,
): Promise<{ tx: UnsignedTx; via: 'registry' | 'nameWrapper'; owner: string }> {
  const holder = await chain.holder(parentName);
  if (/^0x0{40}$/.test(holder.registryOwner)) {
    throw new RefusedError(
      `${parentName} is not registered in the ENS registry ${chain.registry} (chain ${chain.chainId})`,
    );
  }
  const node = namehash(parentName);
  if (!holder.wrapped) {
    const data = REGISTRY.encodeFunctionData('setResolver', [node, getAddress(resolver)]);
    return {
      tx: { to: chain.registry, data, value: '0', chainId: chain.chainId },
      via: 'registry',
      owner: holder.owner,
    };
  }
  if ((holder.fuses & CANNOT_SET_RESOLVER) !== 0) {
    throw new RefusedError(
      `${parentName} is wrapped in the Name Wrapper with its CANNOT_SET_RESOLVER fuse burnt: its resolver cannot be ` +
        'changed by anyone until the fuses expire' +
        (holder.expiry > 0n ? ` (${new Date(Number(holder.expiry) * 1000).toISOString()})` : ''),
    );
  }
  const data = NAME_WRAPPER.encodeFunctionData('setResolver', [node, getAddress(resolver)]);
  return {
    tx: { to: chain.nameWrapper, data, value: '0', chainId: chain.chainId },
    via: 'nameWrapper',
    owner: holder.owner,
  };
}

export function walletFrom(file: string, chain: EnsChain): Wallet {
  let key: string;
  try {
    key = readFileSync(file, 'utf8').trim();
  } catch (e) {
    throw new RefusedError(`cannot read ${file} (${(e as NodeJS.ErrnoException).code}): give --private-key-file FILE`);
  }
  if (!/^0x[0-9a-fA-F]{64}$/.test(key))
    throw new RefusedError(`${file} must hold a 0x-prefixed 32-byte hex private key`);
  return new Wallet(key, chain.provider);
}

export interface Sent {
  hash: string;
  block: number;
  contractAddress: string | null;
}

/** Sends and waits for the receipt; a transaction that would revert is refused before it is sent, with its reason. */
export async function send(wallet: Wallet, tx: UnsignedTx, explain: (revert: string) => string): Promise<Sent> {
  const request = { to: tx.to, data: tx.data, value: BigInt(tx.value), chainId: tx.chainId };
  try {
    await wallet.estimateGas(request);
  } catch (e) {
    const revert = (e as { data?: string }).data;
    if ((e as { code?: string }).code === 'CALL_EXCEPTION') throw new RefusedError(explain(revert ?? '0x'));
    throw e;
  }
  const response = await wallet.sendTransaction(request);
  const receipt = await response.wait();
  if (!receipt || receipt.status !== 1) throw new RefusedError(`transaction ${response.hash} reverted`);
  return { hash: response.hash, block: receipt.blockNumber, contractAddress: receipt.contractAddress };
}

/** Why a deployment failed, in words: a chain whose EVM cannot run the compiled bytecode fails oddly (BUFFER_OVERRUN). */
export function deploymentRefusal(chain: EnsChain): (revert: string) => string {
  const evm = (resolverArtifact().compiler.settings as { evmVersion?: string }).evmVersion ?? 'cancun';
  return (revert) =>
    revert === '0x'
      ? `refused: chain ${chain.chainId} cannot run the compiled resolver (built for the EVM version ${evm}, as ` +
        `Ethereum mainnet and Sepolia run); deploy on a chain that runs ${evm} or later`
      : `refused: the deployment would revert (${revert})`;
}

/** Any error of a deployment other than a refusal or an unreadable chain is the chain failing to run the bytecode. */
export function deploymentFailure(chain: EnsChain, e: unknown): unknown {
  const code = (e as { code?: string }).code;
  if (e instanceof RefusedError || code === undefined || code === 'NETWORK_ERROR' || code === 'TIMEOUT') return e;
  return new RefusedError(deploymentRefusal(chain)('0x'));
}
