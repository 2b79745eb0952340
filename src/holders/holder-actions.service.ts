import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { walletActor, type Actor } from '../audit/audit.types';
import { ValidationFailedError } from '../common/errors';
import { checksumAddress } from '../common/ens/evm-address';
import { nameHash } from '../common/ens/names';
import { canonicalAddress, canonicalContenthash } from '../common/ens/records';
import { refuseOutsideWindow } from '../primary-names/primary-names.service';
import { SignedWrites } from '../subnames/signed-writes';
import { SubnameTakenError } from '../subnames/subnames.errors';
import { SubnamesService, type WriteResult } from '../subnames/subnames.service';
import type { EndedPrimaryName } from '../subnames/primary-name-endings';
import type {
  ClaimDto,
  DeleteDto,
  HolderTextDto,
  HolderAddressDto,
  SetRecordsDto,
  TransferDto,
} from './dto/holder-actions.dto';
import type { HolderAction } from './holder-messages';
import type { HolderPolicyEntity } from './holder-policy.entity';
import { claimRefusal, labelProblem, recordRefusal, splitName } from './holder-rules';
import { HolderGate } from './holder-gate';
import { ClaimLimitReachedError, HolderNotAllowedError, SubnameReservedError } from './holders.errors';
import { HoldersRepository } from './holders.repository';

const now = () => Math.floor(Date.now() / 1000);

/** Records as stored: the entries with a value, keyed; and the keys whose value is "" (to remove). */
function split<T extends HolderTextDto | HolderAddressDto>(
  entries: T[],
  keyOf: (e: T) => string,
  valueOf: (e: T) => string,
) {
  const set: Record<string, string> = {};
  const remove: string[] = [];
  for (const e of entries) {
    if (e.value === '') remove.push(keyOf(e));
    else set[keyOf(e)] = valueOf(e);
  }
  return { set, remove };
}

const texts = (entries: HolderTextDto[]) =>
  split(
    entries,
    (t) => t.key,
    (t) => t.value,
  );
const addresses = (entries: HolderAddressDto[]) =>
  split(
    entries,
    (a) => String(a.coin),
    (a) => canonicalAddress(a.coin, a.value),
  );

/**
 * Holders acting by EIP-712 signature under their parent's policy: each refusal in the order of CONTRACT section
 * 15, then the write through the subnames module's signed writes, with the signer's issuedAt (and a claim's
 * count) decided in the write's own transaction.
 */
@Injectable()
export class HolderActionsService {
  constructor(
    private readonly gate: HolderGate,
    private readonly holders: HoldersRepository,
    private readonly subnames: SubnamesService,
    private readonly writes: SignedWrites,
  ) {}

  async claim(dto: ClaimDto, requestId: string): Promise<WriteResult> {
    const { label, parentName } = splitName(dto.name);
    const policy = await this.gate.policy(parentName);
    const problem = policy && labelProblem(policy, label);
    if (problem) throw new ValidationFailedError([{ field: 'name', message: problem }]);
    const owner = checksumAddress(dto.owner);
    await this.gate.verify('claim', owner, dto);
    const allowed = this.allowed(policy, (p) => claimRefusal(p, owner) ?? this.recordsRefusal(p, dto));
    if (allowed.labels.reserved.includes(label)) throw new SubnameReservedError(label, parentName);
    if (await this.subnames.exists(dto.name)) throw new SubnameTakenError(dto.name);
    const limit = allowed.claimsPerAddress;
    const manager = this.gate.manager();
    if ((await this.holders.claimsOf(manager, parentName, owner)) >= limit) {
      throw new ClaimLimitReachedError(owner, parentName, limit);
    }
    await this.gate.refuseSpentKey(allowed.chargedKeyId);
    refuseOutsideWindow(dto.issuedAt, now());
    const write = {
      fullName: dto.name,
      parentName,
      label,
      namehash: nameHash(dto.name),
      createdBy: allowed.chargedKeyId,
      texts: texts(dto.texts).set,
      addresses: addresses(dto.addresses).set,
      owner,
    };
    // The count before the signer's issuedAt: a racing second claim is CLAIM_LIMIT_REACHED, which comes first.
    return this.writes.create(write, this.actor(owner, requestId), async (m) => {
      if (!(await this.holders.countClaim(m, parentName, owner, limit))) {
        throw new ClaimLimitReachedError(owner, parentName, limit);
      }
      await this.gate.accept(m, owner, dto.issuedAt);
    });
  }

  async setRecords(dto: SetRecordsDto, requestId: string): Promise<WriteResult> {
    const { holder, policy } = await this.holderOf('records', dto);
    this.allowed(policy, (p) => this.recordsRefusal(p, dto));
    refuseOutsideWindow(dto.issuedAt, now());
    const t = texts(dto.texts);
    const a = addresses(dto.addresses);
    const contenthash =
      dto.contenthash === '' ? undefined : dto.contenthash === '0x' ? null : canonicalContenthash(dto.contenthash);
    const patch = {
      setTexts: t.set,
      removeTexts: t.remove,
      setAddresses: a.set,
      removeAddresses: a.remove,
      contenthash,
    };
    return this.writes.patch(dto.name, holder, patch, this.actor(holder, requestId), this.guard(holder, dto.issuedAt));
  }

  async transfer(dto: TransferDto, requestId: string): Promise<WriteResult> {
    const { holder, policy } = await this.holderOf('transfer', dto);
    this.allowed(policy, (p) => (p.transfers ? null : `transfers are off under ${p.parentName} (transfers: false)`));
    refuseOutsideWindow(dto.issuedAt, now());
    const patch = { setTexts: {}, removeTexts: [], setAddresses: {}, removeAddresses: [], owner: dto.newOwner };
    return this.writes.patch(dto.name, holder, patch, this.actor(holder, requestId), this.guard(holder, dto.issuedAt));
  }

  async remove(dto: DeleteDto, requestId: string): Promise<EndedPrimaryName[]> {
    const { holder, policy } = await this.holderOf('delete', dto);
    this.allowed(policy, (p) => (p.deletes ? null : `deletes are off under ${p.parentName} (deletes: false)`));
    refuseOutsideWindow(dto.issuedAt, now());
    return this.writes.remove(dto.name, holder, this.actor(holder, requestId), this.guard(holder, dto.issuedAt));
  }

  /** 404 for a name not stored, 401 unless the signature is its holder's; the holder and the parent's policy. */
  private async holderOf(
    action: HolderAction,
    dto: { name: string; signature: string },
  ): Promise<{ holder: string; policy: HolderPolicyEntity | null }> {
    const stored = await this.subnames.findOrFail(dto.name);
    const policy = await this.gate.policy(stored.parentName);
    await this.gate.verify(action, stored.owner, dto);
    return { holder: checksumAddress(stored.owner!), policy };
  }

  /** 403 HOLDER_NOT_ALLOWED without a policy, or when `refusal` names a rule of it. */
  private allowed(
    policy: HolderPolicyEntity | null,
    refusal: (p: HolderPolicyEntity) => string | null,
  ): HolderPolicyEntity {
    if (!policy) throw new HolderNotAllowedError('the parent has no holder policy: holders can do nothing under it');
    const rule = refusal(policy);
    if (rule) throw new HolderNotAllowedError(rule);
    return policy;
  }

  private recordsRefusal(
    p: HolderPolicyEntity,
    dto: { texts: HolderTextDto[]; addresses: HolderAddressDto[]; contenthash?: string },
  ) {
    const keys = dto.texts.map((t) => t.key);
    const coins = dto.addresses.map((a) => a.coin);
    return recordRefusal(p, keys, coins, dto.contenthash !== undefined && dto.contenthash !== '');
  }

  private guard(signer: string, issuedAt: number) {
    return (m: EntityManager) => this.gate.accept(m, signer, issuedAt);
  }

  private actor(signer: string, requestId: string): Actor {
    return { actor: walletActor(signer), requestId };
  }
}
