import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { UnauthorizedError } from '../common/errors';
import { isSameOrUnder } from '../common/ens/names';
import { ApiKeyEntity } from './api-key.entity';
import { AuthenticatedKey, digestsEqual, generateApiKey, hashApiKey } from './api-key';
import { ForbiddenParentError, KeyLimitError } from './auth.errors';
import { ApiKeyChanges, ApiKeysRepository } from './api-keys.repository';

/** The live keys a wallet may hold: for any one parent name, and in all. */
export interface IssuerLimits {
  perParent: number;
  perWallet: number;
}

/** True when the key may write names under `parentName` (its scope or anything below it). */
export function keyCovers(key: AuthenticatedKey, parentName: string): boolean {
  return key.parentNames.some((scope) => isSameOrUnder(parentName, scope));
}

/** The key store: issuing, changing and revoking keys, and recognising a presented one. */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * Stores a new key for normalised parent names; the secret is returned once and only its digest kept. A key
   * issued by a wallet is refused past `limits`, decided under a lock on the wallet in the caller's transaction.
   */
  async create(
    manager: EntityManager,
    key: { name: string; parentNames: string[]; expiresAt: Date | null; issuedBy?: string | null },
    limits?: IssuerLimits,
  ): Promise<{ entity: ApiKeyEntity; secret: string }> {
    if (key.issuedBy && limits) await this.refuseOverLimits(manager, key.issuedBy, key.parentNames, limits);
    const { key: secret, keyPrefix, keyHash } = generateApiKey();
    const entity = await this.keys.insert(manager, { ...key, keyPrefix, keyHash });
    return { entity, secret };
  }

  private async refuseOverLimits(manager: EntityManager, issuer: string, parents: string[], limits: IssuerLimits) {
    const held = await this.keys.lockAndCountIssued(manager, issuer, parents);
    if (held.total >= limits.perWallet)
      throw new KeyLimitError(
        'KEY_LIMIT_PER_WALLET',
        `${issuer} already holds ${held.total} live keys, the most a wallet may hold (${limits.perWallet}): revoke one first`,
      );
    for (const parent of parents) {
      const n = held.perParent.get(parent) ?? 0;
      if (n >= limits.perParent)
        throw new KeyLimitError(
          'KEY_LIMIT_PER_PARENT',
          `${issuer} already holds ${n} live keys for ${parent}, the most per parent name (${limits.perParent}): revoke one first`,
        );
    }
  }

  find(manager: EntityManager, id: string): Promise<ApiKeyEntity | null> {
    return this.keys.findById(manager, id);
  }

  /** The key, locked for the rest of the caller's transaction. */
  lock(manager: EntityManager, id: string): Promise<ApiKeyEntity | null> {
    return this.keys.findByIdForUpdate(manager, id);
  }

  /** A new secret for the key (returned once); the old one stays valid for `graceSeconds`, then never again. */
  async rotate(
    manager: EntityManager,
    id: string,
    graceSeconds: number,
  ): Promise<{ entity: ApiKeyEntity; secret: string }> {
    const { key: secret, keyPrefix, keyHash } = generateApiKey();
    const entity = await this.keys.rotate(manager, id, { keyPrefix, keyHash }, graceSeconds);
    return { entity, secret };
  }

  list(): Promise<ApiKeyEntity[]> {
    return this.keys.listAll(this.dataSource.manager);
  }

  listIssuedBy(issuer: string): Promise<ApiKeyEntity[]> {
    return this.keys.listIssuedBy(this.dataSource.manager, issuer);
  }

  listLivePortalKeys(): Promise<ApiKeyEntity[]> {
    return this.keys.listLivePortalKeys(this.dataSource.manager);
  }

  /** Suspends a portal key (reason) or lets it work again (null); true when that changed anything. */
  setSuspension(manager: EntityManager, id: string, reason: string | null): Promise<boolean> {
    return this.keys.setSuspension(manager, id, reason);
  }

  update(manager: EntityManager, id: string, changes: ApiKeyChanges): Promise<void> {
    return this.keys.update(manager, id, changes);
  }

  /** False when there is no such key. */
  revoke(manager: EntityManager, id: string): Promise<boolean> {
    return this.keys.revoke(manager, id);
  }

  /** Resolves a presented key; any failure is the same 401 so that callers learn nothing about keys. */
  async authenticate(presented: string | undefined): Promise<AuthenticatedKey> {
    if (!presented || presented.length > 200) throw new UnauthorizedError();
    const digest = hashApiKey(presented);
    const key = await this.keys.findByHash(this.dataSource.manager, digest);
    // The repository matched the current digest, or the previous one within its grace period.
    const matches = key && (digestsEqual(key.keyHash, digest) || digestsEqual(key.previousKeyHash ?? '', digest));
    if (!key || !matches) throw new UnauthorizedError();
    if (key.revokedAt) throw new UnauthorizedError('This API key has been revoked');
    if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) throw new UnauthorizedError('This API key has expired');
    if (key.suspendedReason) throw new UnauthorizedError(`This API key is suspended: ${key.suspendedReason}`);
    return { id: key.id, keyPrefix: key.keyPrefix, parentNames: key.parentNames };
  }

  /** Refuses a write under a parent that the key does not cover. */
  authorize(key: AuthenticatedKey, parentName: string): void {
    if (!keyCovers(key, parentName)) throw new ForbiddenParentError(parentName);
  }
}
