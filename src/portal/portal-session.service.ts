import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { getAddress } from 'ethers';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { walletActor } from '../audit/audit.types';
import { EnsChainService } from '../chain/chain.module';
import { UnauthorizedError } from '../common/errors';
import { AppConfig } from '../config/app-config';
import { TooManyChallengesError, TooManyClientChallengesError } from './portal.errors';
import { PortalRepository } from './portal.repository';
import { SiweVerifier } from './siwe-verifier';

/** An ordinary account signs within 5 minutes; a contract account (a multisig gathering signatures) within 24 h. */
export const CHALLENGE_SECONDS = 5 * 60;
export const CONTRACT_CHALLENGE_SECONDS = 24 * 3600;
/** Expired rows are deleted at most this often per process: the bounds count only live ones, so nothing waits on it. */
const PURGE_INTERVAL_MS = 60_000;
const REFUSED = 'The sign-in message or its signature is not valid: ask for a new message and sign it';

export interface WalletSession {
  /** EIP-55. */
  address: string;
  csrfToken: string;
  idHash: string;
  admin: boolean;
}

export const sessionDigest = (id: string): string => createHash('sha256').update(id).digest('hex');

export function tokensEqual(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}

/** Sign-in challenges, sessions and sign-out. */
@Injectable()
export class PortalSessionService {
  private purgeDueAt = 0;

  constructor(
    private readonly portal: PortalRepository,
    private readonly siwe: SiweVerifier,
    private readonly chains: EnsChainService,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * The EIP-4361 message for `address` to sign, stored until its one attempt. At most PORTAL_CHALLENGES_PER_ADDRESS
   * wait for one address and PORTAL_CHALLENGES_PER_CLIENT from one client address: both bounds are checked before the
   * chain is asked anything, and decided under locks on the address and the client.
   */
  async challenge(address: string, client: string): Promise<{ message: string }> {
    const lower = address.toLowerCase();
    const m = this.dataSource.manager;
    await this.purgeWhenDue(m);
    await this.refuseOverBounds(m, lower, client);
    const nonce = randomBytes(16).toString('hex');
    const issuedAt = new Date();
    const seconds = (await this.holdsCode(address)) ? CONTRACT_CHALLENGE_SECONDS : CHALLENGE_SECONDS;
    const expirationTime = new Date(issuedAt.getTime() + seconds * 1000);
    const message = this.siwe.message({ address: getAddress(address), nonce, issuedAt, expirationTime });
    await this.dataSource.transaction(async (t) => {
      await this.portal.lockChallengers(t, lower, client);
      await this.refuseOverBounds(t, lower, client);
      await this.portal.insertChallenge(t, { nonce, address: lower, client, message, expiresAt: expirationTime });
    });
    return { message };
  }

  private async refuseOverBounds(m: EntityManager, address: string, client: string): Promise<void> {
    const { challengesPerAddress, challengesPerClient } = this.config.portal;
    const live = await this.portal.liveChallenges(m, address, client);
    if (live.address.count >= challengesPerAddress)
      throw new TooManyChallengesError(getAddress(address), challengesPerAddress, live.address.firstEndsIn);
    if (live.client.count >= challengesPerClient)
      throw new TooManyClientChallengesError(challengesPerClient, live.client.firstEndsIn);
  }

  private async purgeWhenDue(m: EntityManager): Promise<void> {
    const now = Date.now();
    if (now < this.purgeDueAt) return;
    this.purgeDueAt = now + PURGE_INTERVAL_MS;
    await this.portal.purgeExpired(m);
  }

  /**
   * A new session for a signed challenge, its id returned for the cookie. The challenge is consumed before the
   * signature is looked at, so a failed attempt cannot be retried with the same message.
   */
  async signIn(address: string, message: string, signature: string, requestId: string): Promise<string> {
    const nonce = this.siwe.nonceOf(message);
    if (!nonce) throw new UnauthorizedError(REFUSED);
    const challenge = await this.portal.consumeChallenge(this.dataSource.manager, nonce);
    const lower = address.toLowerCase();
    if (!challenge || challenge.expired || challenge.message !== message || challenge.address !== lower)
      throw new UnauthorizedError(REFUSED);
    if (!(await this.siwe.verify(message, signature, getAddress(address), nonce))) throw new UnauthorizedError(REFUSED);
    const id = randomBytes(32).toString('base64url');
    await this.dataSource.transaction(async (m) => {
      await this.portal.insertSession(m, {
        idHash: sessionDigest(id),
        address: lower,
        csrfToken: randomBytes(24).toString('base64url'),
      });
      const by = { actor: walletActor(lower), requestId };
      await this.audit.record(m, { by, action: 'portal.sign-in', subject: lower, before: null, after: null });
    });
    return id;
  }

  /** The live session of a cookie's id (its idle clock restarted), or null. */
  async authenticate(id: string | undefined): Promise<WalletSession | null> {
    if (!id || id.length > 100) return null;
    const idHash = sessionDigest(id);
    const row = await this.portal.touchSession(this.dataSource.manager, idHash);
    if (!row) return null;
    const admin = this.config.portal.adminAddresses.includes(row.address);
    return { address: getAddress(row.address), csrfToken: row.csrfToken, idHash, admin };
  }

  async signOut(session: WalletSession, requestId: string): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await this.portal.deleteSession(m, session.idHash);
      const by = { actor: walletActor(session.address), requestId };
      const subject = session.address.toLowerCase();
      await this.audit.record(m, { by, action: 'portal.sign-out', subject, before: null, after: null });
    });
  }

  /** Whether the address is a contract account; without a readable chain, treated as an ordinary one. */
  private async holdsCode(address: string): Promise<boolean> {
    if (!this.chains.configured) return false;
    try {
      return await this.chains.get().hasCode(address);
    } catch {
      // The endpoint failed or timed out (its requests are bounded): an ordinary account's window, then.
      return false;
    }
  }
}
