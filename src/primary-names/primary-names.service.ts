import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { walletActor } from '../audit/audit.types';
import { DomainError } from '../common/errors';
import { checksumAddress } from '../common/ens/evm-address';
import { SignatureVerifier } from '../chain/chain.module';
import { AppConfig } from '../config/app-config';
import { ReadRouter } from '../reads/read-router';
import { SubnameNotFoundError } from '../subnames/subnames.errors';
import { type SubnameRecords, SubnamesService } from '../subnames/subnames.service';
import { PrimaryNameResponse, toPrimaryNameResponse } from './dto/primary-name.response';
import { SetPrimaryNameDto } from './dto/set-primary-name.dto';
import { PrimaryNameSetupResponse } from './dto/setup.response';
import { primaryNameDigest, serviceOf } from './primary-name-message';
import { PrimaryNameCache } from './primary-name-cache';
import {
  ForwardMismatchError,
  NotHolderSignatureError,
  PrimaryNameNotFoundError,
  StaleSignatureError,
} from './primary-names.errors';
import { PrimaryNamesRepository } from './primary-names.repository';
import { reverseAddress } from './reverse-name';
import { reverseSetup } from './reverse-setup';

/** How old a signature's issuedAt may be, and how far ahead of this clock. */
export const MAX_SIGNATURE_AGE_SECONDS = 600;
export const MAX_CLOCK_AHEAD_SECONDS = 60;

/** The coin-60 address of a stored name (EIP-55), or null. */
function ethAddressOf(records: SubnameRecords | null): string | null {
  const value = records?.addresses['60'];
  return value ? checksumAddress(value) : null;
}

/**
 * Primary names (ENSIP-19): an address chooses, by signature, which of the names stored here that resolve to it
 * wallets show for it; the gateway answers name() of `<address>.addr.reverse` with it while it still does.
 */
@Injectable()
export class PrimaryNamesService {
  constructor(
    private readonly repository: PrimaryNamesRepository,
    private readonly cache: PrimaryNameCache,
    private readonly subnames: SubnamesService,
    private readonly audit: AuditService,
    private readonly signatures: SignatureVerifier,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reads: ReadRouter,
  ) {}

  /** Stores the holder's signed choice; the same or an older issuedAt than the last accepted is refused. */
  async choose(dto: SetPrimaryNameDto, requestId: string): Promise<PrimaryNameResponse> {
    const { address, name, issuedAt, signature } = dto;
    const digest = primaryNameDigest(this.config.ens.chainId, {
      addr: address,
      name,
      issuedAt,
      service: this.service(),
    });
    // What needs no chain comes first: a stale or early signature costs no RPC call.
    refuseOutsideWindow(issuedAt, Math.floor(Date.now() / 1000));
    if (!(await this.signatures.verifyHash(address, digest, signature))) throw new NotHolderSignatureError(address);
    if (name !== '') {
      const records = await this.subnames.records(name);
      if (!records) throw new SubnameNotFoundError(name);
      const actual = ethAddressOf(records);
      if (actual !== address) throw new ForwardMismatchError(name, address, actual);
    }
    const chosen = name === '' ? null : name;
    await this.dataSource.transaction(async (manager) => {
      const stored = await this.repository.choose(manager, { address, name: chosen, issuedAt });
      if (!stored) {
        throw new StaleSignatureError(`issuedAt ${issuedAt} is not later than the last one accepted for ${address}`);
      }
      await this.audit.record(manager, {
        by: { actor: walletActor(address), requestId },
        action: chosen ? 'primary-name.set' : 'primary-name.clear',
        subject: address,
        before: { name: stored.previous },
        after: { name: chosen },
      });
    });
    this.cache.written(address);
    return toPrimaryNameResponse(address, chosen, chosen !== null);
  }

  /**
   * The per-signer replay rule, shared by every signed action: in the caller's transaction, refuses (409
   * STALE_SIGNATURE) an issuedAt not later than the last one accepted from `address`, and otherwise records it.
   */
  async acceptSignature(manager: EntityManager, address: string, issuedAt: number): Promise<void> {
    const signer = checksumAddress(address);
    if (!(await this.repository.accept(manager, signer, issuedAt))) {
      throw new StaleSignatureError(`issuedAt ${issuedAt} is not later than the last one accepted for ${signer}`);
    }
  }

  async findOrFail(address: string): Promise<PrimaryNameResponse> {
    const name = await this.chosen(address);
    if (name === null) throw new PrimaryNameNotFoundError(address);
    return toPrimaryNameResponse(address, name, ethAddressOf(await this.subnames.records(name)) === address);
  }

  /** The gateway's name() answer for a normalised name: the chosen name while it resolves back, else "". */
  async reverseAnswer(name: string): Promise<string> {
    return (await this.reverseLookup(name)).answer;
  }

  /** The answer, and the chosen name it read (whose records decide it) for caches that must know. */
  async reverseLookup(name: string): Promise<{ answer: string; chosen: string | null }> {
    const address = reverseAddress(name);
    if (!address) return { answer: '', chosen: null };
    const chosen = await this.chosen(address);
    if (chosen === null) return { answer: '', chosen };
    return { answer: ethAddressOf(await this.subnames.records(chosen)) === address ? chosen : '', chosen };
  }

  setup(address: string, resolver: string): PrimaryNameSetupResponse {
    return reverseSetup(address, resolver, this.config.ens);
  }

  private chosen(address: string): Promise<string | null> {
    return this.cache.get(address, () => this.reads.run((m) => this.repository.findName(m, address)));
  }

  /** The origin the signatures are bound to; in production it is PUBLIC_URL's, which may be unset. */
  private service(): string {
    if (!this.config.publicUrl) {
      throw new DomainError('SERVICE_UNAVAILABLE', 'PUBLIC_URL is unset: primary-name signatures cannot be checked');
    }
    return serviceOf(this.config.publicUrl);
  }
}

/** 409 STALE_SIGNATURE for an issuedAt more than 10 minutes old or more than 60 s ahead of `now`. */
export function refuseOutsideWindow(issuedAt: number, now: number): void {
  if (issuedAt < now - MAX_SIGNATURE_AGE_SECONDS) {
    throw new StaleSignatureError(`issuedAt ${issuedAt} is more than ${MAX_SIGNATURE_AGE_SECONDS} s old; sign again`);
  }
  if (issuedAt > now + MAX_CLOCK_AHEAD_SECONDS) {
    throw new StaleSignatureError(
      `issuedAt ${issuedAt} is more than ${MAX_CLOCK_AHEAD_SECONDS} s ahead of the service's clock (${now})`,
    );
  }
}
