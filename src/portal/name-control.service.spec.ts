import { id, Interface, Wallet, ZeroAddress } from 'ethers';
import { ChainUnavailableError } from '../chain/chain.errors';
import { EnsChainService } from '../chain/chain.module';
import type { CallOutcome, EnsChain, NameHolder } from '../chain/ens-chain';
import { loadConfig } from '../config/app-config';
import { GRACE_PERIOD_SECONDS, NameControlService } from './name-control.service';
import { NotNameControllerError } from './portal.errors';

const REGISTRY = '0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e';
const WRAPPER = '0xD4416b13d2b3a9aBae7AcD5D6C2BbDBE25686401';
const REGISTRAR = '0x57f1887a8BF19b14fC0dF6Fd9B2acc9Af147eA85';
const ABI = new Interface([
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function ownerOf(uint256 id) view returns (address)',
  'function nameExpires(uint256 id) view returns (uint256)',
]);
const now = () => Math.floor(Date.now() / 1000);
const [alice, bob, carol, erin] = Array.from({ length: 4 }, () => Wallet.createRandom().address);

/** A chain of one name: who holds it in the registry (or Name Wrapper), its registrar record, the approvals. */
class FakeChain {
  readonly registry = REGISTRY;
  readonly nameWrapper = WRAPPER;
  holderOf: NameHolder = { registryOwner: alice, wrapped: false, owner: alice, fuses: 0, expiry: 0n };
  registrant: string | null = alice;
  expires = now() + 86_400;
  approvals = new Set<string>();
  registrarReads = 0;
  /** Seconds the latest block is ahead of the wall clock. */
  clockAhead = 0;

  now(): Promise<bigint> {
    return Promise.resolve(BigInt(now() + this.clockAhead));
  }

  holder(): Promise<NameHolder> {
    return Promise.resolve(this.holderOf);
  }

  call(to: string, data: string): Promise<CallOutcome> {
    const call = ABI.parseTransaction({ data })!;
    const answer = (value: unknown): CallOutcome => ({ ok: true, data: ABI.encodeFunctionResult(call.name, [value]) });
    if (call.name === 'isApprovedForAll') {
      const [owner, operator] = call.args as unknown as [string, string];
      return Promise.resolve(answer(this.approvals.has(`${to}:${owner}:${operator}`)));
    }
    expect(to).toBe(REGISTRAR);
    this.registrarReads++;
    expect(call.args[0]).toBe(BigInt(id('oak')));
    if (call.name === 'nameExpires') return Promise.resolve(answer(this.expires));
    if (this.expires <= now() || !this.registrant) return Promise.resolve({ ok: false, revert: '0x' });
    return Promise.resolve(answer(this.registrant));
  }

  approve(contract: string, owner: string, operator: string): void {
    this.approvals.add(`${contract}:${owner}:${operator}`);
  }
}

describe(NameControlService.name, () => {
  let chain: FakeChain;
  let sut: NameControlService;

  beforeEach(() => {
    chain = new FakeChain();
    const chains = { get: () => chain as unknown as EnsChain } as EnsChainService;
    sut = new NameControlService(chains, loadConfig({ ENS_RPC_URL: 'http://127.0.0.1:1' }));
  });

  it('gives the registry owner the manager role first, even when it is also the registrant', async () => {
    await expect(sut.control(alice, 'oak.eth')).resolves.toEqual({ name: 'oak.eth', role: 'manager', wrapped: false });
  });

  it('recognises the registrant of a .eth name whose manager is another', async () => {
    chain.holderOf = { ...chain.holderOf, registryOwner: bob, owner: bob };
    await expect(sut.control(alice, 'oak.eth')).resolves.toMatchObject({ role: 'registrant' });
    await expect(sut.control(bob, 'oak.eth')).resolves.toMatchObject({ role: 'manager' });
  });

  it('recognises the Name Wrapper owner of a wrapped name, and not the wrapper itself as manager', async () => {
    chain.holderOf = { registryOwner: WRAPPER, wrapped: true, owner: carol, fuses: 0, expiry: 0n };
    chain.registrant = WRAPPER;
    await expect(sut.control(carol, 'oak.eth')).resolves.toEqual({
      name: 'oak.eth',
      role: 'wrapped-owner',
      wrapped: true,
    });
  });

  it('recognises an operator through the registry, or through the Name Wrapper for a wrapped name', async () => {
    chain.approve(REGISTRY, alice, erin);
    await expect(sut.control(erin, 'oak.eth')).resolves.toMatchObject({ role: 'operator', wrapped: false });
    chain.holderOf = { registryOwner: WRAPPER, wrapped: true, owner: carol, fuses: 0, expiry: 0n };
    chain.approve(REGISTRY, carol, bob);
    await expect(sut.control(bob, 'oak.eth')).rejects.toBeInstanceOf(NotNameControllerError);
    chain.approve(WRAPPER, carol, bob);
    await expect(sut.control(bob, 'oak.eth')).resolves.toMatchObject({ role: 'operator', wrapped: true });
  });

  it('refuses anyone else, naming the registry owner and the registrant', async () => {
    chain.holderOf = { ...chain.holderOf, registryOwner: bob, owner: bob };
    const refusal = await sut.control(carol, 'oak.eth').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(NotNameControllerError);
    expect((refusal as Error).message).toBe(
      `${carol} does not control oak.eth on chain: its registry owner is ${bob}, its registrant is ${alice}`,
    );
  });

  it('keeps the manager during the grace period, without a registrant; past it nobody controls the name or below', async () => {
    chain.holderOf = { ...chain.holderOf, registryOwner: bob, owner: bob };
    chain.expires = now() - 10 * 86_400;
    await expect(sut.control(bob, 'oak.eth')).resolves.toMatchObject({ role: 'manager' });
    await expect(sut.control(alice, 'oak.eth')).rejects.toBeInstanceOf(NotNameControllerError);
    chain.expires = now() - GRACE_PERIOD_SECONDS - 60;
    await expect(sut.control(bob, 'oak.eth')).rejects.toThrow(/Nobody controls oak\.eth: oak\.eth expired/);
    await expect(sut.control(bob, 'team.oak.eth')).rejects.toThrow(/Nobody controls team\.oak\.eth/);
  });

  it('leaves the registry alone to decide when the registrar knows nothing of the name', async () => {
    chain.expires = 0;
    chain.registrant = null;
    await expect(sut.control(alice, 'oak.eth')).resolves.toMatchObject({ role: 'manager' });
  });

  it('reads no registrar for a name outside .eth, and an empty registry record is no controller', async () => {
    chain.holderOf = { registryOwner: ZeroAddress, wrapped: false, owner: ZeroAddress, fuses: 0, expiry: 0n };
    await expect(sut.control(alice, 'oak.xyz')).rejects.toThrow('its registry owner is nobody');
    expect(chain.registrarReads).toBe(0);
  });

  it("decides expiry by the latest block's clock, not the service's", async () => {
    chain.holderOf = { ...chain.holderOf, registryOwner: bob, owner: bob };
    chain.clockAhead = GRACE_PERIOD_SECONDS + 2 * 86_400;
    const e = await sut.control(alice, 'oak.eth').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NotNameControllerError);
    expect((e as Error).message).toMatch(/^Nobody controls oak\.eth: oak\.eth expired and its grace period ended on /);
  });

  it('says that the operator has not configured a chain when ENS_RPC_URL is unset', async () => {
    const unconfigured = new NameControlService(new EnsChainService(loadConfig({})), loadConfig({}));
    const e = await unconfigured.control(alice, 'oak.eth').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ChainUnavailableError);
    expect((e as Error).message).toMatch(/operator of this service has not configured a chain/);
  });
});
