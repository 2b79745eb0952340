/**
 * ENS on a fresh chain: ENS's own compiled ENSRegistry and ReverseRegistrar (@ensdomains/ens, a devDependency),
 * and the stand-ins of contracts/dev/ for the `.eth` base registrar and the Name Wrapper: the calls the portal's
 * ownership check (src/chain) and the primary-name setup make.
 */
import {
  type Contract,
  ContractFactory,
  id,
  type InterfaceAbi,
  namehash,
  type Wallet,
  ZeroAddress,
  ZeroHash,
} from 'ethers';
import { ENSRegistry, ReverseRegistrar } from '@ensdomains/ens';
import { committedArtifact } from '../chain/resolver-artifact';

export interface EnsContracts {
  registry: Contract;
  registrar: Contract;
  wrapper: Contract;
  reverseRegistrar: Contract;
}

type Sent = Promise<{ wait(): Promise<unknown> }>;

export async function mined(tx: Sent): Promise<void> {
  await (await tx).wait();
}

/** Deploys one contract from `deployer` and waits for it. */
export async function deployContract(
  deployer: Wallet,
  artifact: { abi: unknown; bytecode: string },
  ...args: unknown[]
): Promise<Contract> {
  const factory = new ContractFactory(artifact.abi as InterfaceAbi, artifact.bytecode, deployer);
  const contract = (await factory.deploy(...args)) as Contract;
  await contract.waitForDeployment();
  return contract;
}

/** The registry (root held by `deployer`), `.eth` held by the base registrar, and `addr.reverse` by its registrar. */
export async function deployEns(deployer: Wallet): Promise<EnsContracts> {
  const registry = await deployContract(deployer, ENSRegistry);
  const registryAddress = await registry.getAddress();
  const registrar = await deployContract(
    deployer,
    committedArtifact('dev/BaseRegistrar'),
    registryAddress,
    namehash('eth'),
  );
  const wrapper = await deployContract(deployer, committedArtifact('dev/NameWrapper'), registryAddress);
  const reverseRegistrar = await deployContract(deployer, ReverseRegistrar, registryAddress, ZeroAddress);
  await mined(registry.setSubnodeOwner(ZeroHash, id('eth'), await registrar.getAddress()));
  await mined(registry.setSubnodeOwner(ZeroHash, id('reverse'), deployer.address));
  await mined(registry.setSubnodeOwner(namehash('reverse'), id('addr'), await reverseRegistrar.getAddress()));
  return { registry, registrar, wrapper, reverseRegistrar };
}

/** The service's ENS_* settings for these contracts. */
export async function ensSettings(rpcUrl: string, chainId: number, ens: EnsContracts): Promise<Record<string, string>> {
  return {
    ENS_RPC_URL: rpcUrl,
    ENS_CHAIN_ID: String(chainId),
    ENS_REGISTRY_ADDRESS: await ens.registry.getAddress(),
    ENS_NAME_WRAPPER_ADDRESS: await ens.wrapper.getAddress(),
    ENS_BASE_REGISTRAR_ADDRESS: await ens.registrar.getAddress(),
    ENS_REVERSE_REGISTRAR_ADDRESS: await ens.reverseRegistrar.getAddress(),
  };
}
