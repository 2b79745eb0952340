import { Injectable } from '@nestjs/common';
import { getAddress, id as keccakUtf8, Interface, ZeroAddress } from 'ethers';
import { EnsChainService } from '../chain/chain.module';
import { withinChainDeadline } from '../chain/deadline';
import { EnsChain } from '../chain/ens-chain';
import { AppConfig } from '../config/app-config';
import { NotNameControllerError } from './portal.errors';

export type ControlRole = 'manager' | 'wrapped-owner' | 'registrant' | 'operator';

export interface NameControl {
  name: string;
  role: ControlRole;
  wrapped: boolean;
}

const APPROVALS = new Interface(['function isApprovedForAll(address owner, address operator) view returns (bool)']);
const BASE_REGISTRAR = new Interface([
  'function ownerOf(uint256 id) view returns (address)',
  'function nameExpires(uint256 id) view returns (uint256)',
]);
/** A `.eth` name keeps its registrant for this long after expiry (the base registrar's GRACE_PERIOD). */
export const GRACE_PERIOD_SECONDS = 90 * 86_400;
/** The whole check's budget: a slower chain is a 503, never a guess. */
const CONTROL_DEADLINE_MS = 8000;

const same = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();
const shown = (address: string) => getAddress(address);

/**
 * Who controls a name on chain now, with the ENS manager app's rules, the first that holds giving the role: the
 * registry owner, the Name Wrapper owner of a wrapped name, the registrant of a `.eth` second-level name, an
 * operator approved by the owner (the registry's or the Name Wrapper's isApprovedForAll). A `.eth` name whose
 * second-level name is past its expiry and grace period has no controller.
 */
@Injectable()
export class NameControlService {
  constructor(
    private readonly chains: EnsChainService,
    private readonly config: AppConfig,
  ) {}

  /** The role of `address` for `name` (normalised); NotNameControllerError naming who controls it otherwise. */
  async control(address: string, name: string): Promise<NameControl> {
    return withinChainDeadline(this.read(this.chains.get(), address, name), CONTROL_DEADLINE_MS);
  }

  private async read(chain: EnsChain, me: string, name: string): Promise<NameControl> {
    const holder = await chain.holder(name);
    const registrant = await this.registrant(chain, name);
    const wrappedOwner = holder.wrapped && holder.owner !== ZeroAddress ? holder.owner : null;
    const found = (role: ControlRole): NameControl => ({ name, role, wrapped: holder.wrapped });
    if (!holder.wrapped && same(holder.registryOwner, me)) return found('manager');
    if (same(wrappedOwner, me)) return found('wrapped-owner');
    if (same(registrant, me)) return found('registrant');
    const owner = holder.wrapped ? wrappedOwner : holder.registryOwner;
    const approvals = holder.wrapped ? chain.nameWrapper : chain.registry;
    if (owner && owner !== ZeroAddress && (await this.approved(chain, approvals, owner, me))) return found('operator');
    const holders = [
      holder.wrapped
        ? `its Name Wrapper owner is ${wrappedOwner ? shown(wrappedOwner) : 'nobody'}`
        : `its registry owner is ${holder.registryOwner === ZeroAddress ? 'nobody' : shown(holder.registryOwner)}`,
      ...(registrant ? [`its registrant is ${shown(registrant)}`] : []),
    ];
    throw new NotNameControllerError(`${shown(me)} does not control ${name} on chain: ${holders.join(', ')}`);
  }

  /**
   * The registrant of a `.eth` second-level name (null for other names, or past expiry); refuses any name under
   * a `.eth` second-level name that is past its expiry and grace period. A registrar that knows nothing of the
   * name (no expiry) leaves the registry alone to decide.
   */
  private async registrant(chain: EnsChain, name: string): Promise<string | null> {
    const labels = name.split('.');
    if (labels.length < 2 || labels.at(-1) !== 'eth') return null;
    const secondLevel = labels.slice(-2).join('.');
    const tokenId = BigInt(keccakUtf8(labels.at(-2)!));
    const registrar = this.config.ens.baseRegistrar;
    const expires = await this.read1<bigint>(chain, registrar, 'nameExpires', [tokenId]);
    if (!expires) return null;
    // The chain's clock decides expiry there; the service's may be behind it.
    const now = await chain.now();
    if (expires + BigInt(GRACE_PERIOD_SECONDS) < now) {
      const ended = new Date(Number(expires + BigInt(GRACE_PERIOD_SECONDS)) * 1000).toISOString();
      throw new NotNameControllerError(
        `Nobody controls ${name}: ${secondLevel} expired and its grace period ended on ${ended}`,
      );
    }
    if (labels.length !== 2 || expires <= now) return null;
    return (await this.read1<string>(chain, registrar, 'ownerOf', [tokenId])) ?? null;
  }

  private async approved(chain: EnsChain, contract: string, owner: string, operator: string): Promise<boolean> {
    const out = await chain.call(contract, APPROVALS.encodeFunctionData('isApprovedForAll', [owner, operator]));
    if (!out.ok) return false;
    try {
      return APPROVALS.decodeFunctionResult('isApprovedForAll', out.data)[0] === true;
    } catch {
      return false;
    }
  }

  /** One value of a base registrar read; null when the contract reverts or is not there. */
  private async read1<T>(chain: EnsChain, to: string, fn: string, args: unknown[]): Promise<T | null> {
    const out = await chain.call(to, BASE_REGISTRAR.encodeFunctionData(fn, args));
    if (!out.ok) return null;
    try {
      return BASE_REGISTRAR.decodeFunctionResult(fn, out.data)[0] as T;
    } catch {
      return null;
    }
  }
}
