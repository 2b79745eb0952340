/**
 * ENS as today's clients reach an offchain name (ENSIP-23, ENSIP-21), on an in-process chain: a registry whose
 * parent names use the shipped offchain resolver (pointing at a gateway URL), a Universal Resolver that turns its
 * OffchainLookup into a batch gateway query, an HTTP batch gateway, and viem and ethers clients on that chain.
 */
import { AbiCoder, type BrowserProvider, concat, getAddress, id, Interface, namehash, ZeroHash } from 'ethers';
import { createPublicClient, custom, defineChain, type PublicClient } from 'viem';
import resolverArtifact from '../../contracts/OffchainResolver.json';
import { compileContract } from '../contracts/compile';
import { BatchGateway, startBatchGateway } from './batch-gateway';
import { evmProvider } from './evm-provider';
import { RpcServer } from '../../src/dev-chain/rpc-server';

export const UNIVERSAL_CHAIN_ID = 31337;

export interface UniversalEns {
  rpc: RpcServer;
  batchGateway: BatchGateway;
  registry: string;
  offchainResolver: string;
  universalResolver: string;
  viem: PublicClient;
  ethers: BrowserProvider;
  close(): Promise<void>;
}

/** Deploys the contracts for `parents` (`<label>.eth`), their resolver answering from `gatewayUrl` signed by `signer`. */
export async function startUniversalEns(
  gatewayUrl: string,
  signer: { address: string },
  parents: string[],
): Promise<UniversalEns> {
  const coder = AbiCoder.defaultAbiCoder();
  const deployer = getAddress(`0x${'de'.repeat(20)}`);
  const rpc = await RpcServer.start(UNIVERSAL_CHAIN_ID);
  const { evm, chain } = rpc;
  const deploy = async (bytecode: string, args: string) =>
    getAddress(await evm.deploy(chain, deployer, concat([bytecode, args])));
  const send = async (to: string, data: string) => {
    const r = await evm.call(chain, { from: deployer, to, data, timestamp: rpc.node.now() });
    if (!r.success) throw new Error(`transaction to ${to} reverted: ${r.returnData}`);
  };
  const registryCode = compileContract('ENSRegistry.sol', 'ENSRegistry');
  const universalCode = compileContract('UniversalResolver.sol', 'UniversalResolver');
  const registryAbi = new Interface(registryCode.abi as string[]);
  const batchGateway = await startBatchGateway();

  const registry = await deploy(registryCode.bytecode, '0x');
  const offchainResolver = await deploy(
    resolverArtifact.bytecode,
    coder.encode(['string', 'address[]', 'address'], [gatewayUrl, [signer.address], deployer]),
  );
  const universalResolver = await deploy(
    universalCode.bytecode,
    coder.encode(['address', 'string[]'], [registry, [batchGateway.url]]),
  );
  await send(registry, registryAbi.encodeFunctionData('setSubnodeOwner', [ZeroHash, id('eth'), deployer]));
  for (const parent of parents) {
    const label = parent.replace(/\.eth$/, '');
    await send(registry, registryAbi.encodeFunctionData('setSubnodeOwner', [namehash('eth'), id(label), deployer]));
    await send(registry, registryAbi.encodeFunctionData('setResolver', [namehash(parent), offchainResolver]));
  }

  const testChain = defineChain({
    id: UNIVERSAL_CHAIN_ID,
    name: 'in-process',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpc.url] } },
    contracts: { ensUniversalResolver: { address: universalResolver as `0x${string}` } },
  });
  // No retries: viem retries a revert thrown by an EIP-1193 object, which would only slow every OffchainLookup.
  const viem = createPublicClient({ chain: testChain, transport: custom(rpc.node, { retryCount: 0 }) });
  const ethers = evmProvider(rpc.node, registry, universalResolver);
  return {
    rpc,
    batchGateway,
    registry,
    offchainResolver,
    universalResolver,
    viem,
    ethers,
    async close() {
      ethers.destroy();
      await batchGateway.close();
      await rpc.close();
    },
  };
}
