/**
 * An ENS deployment for the developer portal's tests, in the in-process EVM behind a loopback JSON-RPC endpoint:
 * the one `npm run cli -- dev-chain` makes (src/dev-chain/ens-deployment.ts), and ERC-1271 contract wallets.
 */
import {
  AbiCoder,
  concat,
  type Contract,
  ContractFactory,
  id,
  type InterfaceAbi,
  JsonRpcProvider,
  namehash,
  Wallet,
} from 'ethers';
import { deployEns, ensSettings } from '../../src/dev-chain/ens-deployment';
import { compileContract } from '../contracts/compile';
import { RpcServer } from '../../src/dev-chain/rpc-server';

export const CHAIN_ID = 31337;
const YEAR = 365 * 86_400;
const ERC6492_SUFFIX = `0x${'6492'.repeat(16)}`;

/** A contract account not deployed yet: its CREATE2 address, and how its owner's signature is wrapped (ERC-6492). */
export interface CounterfactualAccount {
  address: string;
  /** `inner` (the owner's signature) with the factory call that would deploy the account, then the 6492 suffix. */
  wrap(inner: string): string;
}

export class PortalChain {
  private constructor(
    readonly rpc: RpcServer,
    readonly provider: JsonRpcProvider,
    readonly root: Wallet,
    readonly registry: Contract,
    readonly registrar: Contract,
    readonly wrapper: Contract,
    readonly reverseRegistrar: Contract,
  ) {}

  static async start(): Promise<PortalChain> {
    const rpc = await RpcServer.start(CHAIN_ID);
    const provider = new JsonRpcProvider(rpc.url, CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
    const root = new Wallet(Wallet.createRandom().privateKey, provider);
    const { registry, registrar, wrapper, reverseRegistrar } = await deployEns(root);
    return new PortalChain(rpc, provider, root, registry, registrar, wrapper, reverseRegistrar);
  }

  /** The service's ENS_* settings for this chain. */
  env(): Promise<Record<string, string>> {
    const { registry, registrar, wrapper, reverseRegistrar } = this;
    return ensSettings(this.rpc.url, CHAIN_ID, { registry, registrar, wrapper, reverseRegistrar });
  }

  /** A wallet that can send transactions on this chain (the in-process EVM charges no balance). */
  wallet(): Wallet {
    return new Wallet(Wallet.createRandom().privateKey, this.provider);
  }

  /** Registers `<label>.eth` to `owner` (registrant and registry owner) until `expires` (default: a year). */
  async register(label: string, owner: string, expires = Math.floor(Date.now() / 1000) + YEAR): Promise<void> {
    await (await this.registrar.register(BigInt(id(label)), owner, expires)).wait();
  }

  /** Registers `<label>.eth` to the Name Wrapper and wraps it for `owner`. */
  async registerWrapped(label: string, owner: string): Promise<void> {
    const expires = Math.floor(Date.now() / 1000) + YEAR;
    await this.register(label, await this.wrapper.getAddress(), expires);
    await (await this.wrapper.wrap(namehash(`${label}.eth`), owner, 0, expires + 90 * 86_400)).wait();
  }

  /** Sends one transaction from `from` to a contract of this chain and waits for it. */
  async send(contract: Contract, from: Wallet, fn: string, ...args: unknown[]): Promise<void> {
    const tx = (await (contract.connect(from) as Contract).getFunction(fn)(...args)) as { wait(): Promise<unknown> };
    await tx.wait();
  }

  async deployContractWallet(owner: string): Promise<string> {
    const code = compileContract('ContractWallet.sol', 'ContractWallet');
    const contract = (await new ContractFactory(code.abi as InterfaceAbi, code.bytecode, this.root).deploy(
      owner,
    )) as Contract;
    await contract.waitForDeployment();
    return contract.getAddress();
  }

  /** A factory of contract wallets at CREATE2 addresses (accounts that sign with ERC-6492 before they exist). */
  async deployWalletFactory(): Promise<Contract> {
    const code = compileContract('ContractWallet.sol', 'ContractWalletFactory');
    const factory = (await new ContractFactory(
      code.abi as InterfaceAbi,
      code.bytecode,
      this.root,
    ).deploy()) as Contract;
    await factory.waitForDeployment();
    return factory;
  }

  /** The ContractWallet `factory` would deploy for `owner` with `salt`, left undeployed. */
  async counterfactualAccount(factory: Contract, owner: string, salt: string): Promise<CounterfactualAccount> {
    const address = (await factory.getFunction('addressOf')(owner, salt)) as string;
    const deployCall = factory.interface.encodeFunctionData('deploy', [owner, salt]);
    const target = await factory.getAddress();
    const coder = AbiCoder.defaultAbiCoder();
    return {
      address,
      wrap: (inner) =>
        concat([coder.encode(['address', 'bytes', 'bytes'], [target, deployCall, inner]), ERC6492_SUFFIX]),
    };
  }

  async close(): Promise<void> {
    this.provider.destroy();
    await this.rpc.close();
  }
}
