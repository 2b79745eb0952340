import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ApiKeysService } from '../auth/api-keys.service';
import { DomainError } from '../common/errors';
import { AppConfig } from '../config/app-config';
import { SignatureVerifier } from '../chain/chain.module';
import { serviceOf } from '../primary-names/primary-name-message';
import { PrimaryNamesService } from '../primary-names/primary-names.service';
import { QuotaExceededError } from '../quota/quota.errors';
import { QuotaService } from '../quota/quota.service';
import { SignerBudget } from '../rate-limit/signer-budget';
import { HolderAction, holderDigest, holderTypedData, HolderTypedData } from './holder-messages';
import type { HolderPolicyEntity } from './holder-policy.entity';
import { NotHolderError } from './holders.errors';
import { HoldersRepository } from './holders.repository';

/** What every holder action asks first: the policy, the signature, the charged key, the signer's issuedAt. */
@Injectable()
export class HolderGate {
  constructor(
    private readonly holders: HoldersRepository,
    private readonly signatures: SignatureVerifier,
    private readonly primaryNames: PrimaryNamesService,
    private readonly keys: ApiKeysService,
    private readonly quota: QuotaService,
    private readonly config: AppConfig,
    private readonly budget: SignerBudget,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  manager(): EntityManager {
    return this.dataSource.manager;
  }

  policy(parentName: string): Promise<HolderPolicyEntity | null> {
    return this.holders.find(this.dataSource.manager, parentName);
  }

  /** The typed data of an action's fields (a body less its signature), as the wallet is to sign it. */
  typedData(action: HolderAction, fields: Record<string, unknown>): HolderTypedData {
    return holderTypedData(action, this.config.ens.chainId, this.service(), fields);
  }

  /** 401 unless `signer` (none: a name without a holder) signed this action's message; then its budget is charged. */
  async verify(action: HolderAction, signer: string | null, dto: { signature: string }): Promise<void> {
    const { signature, ...fields } = dto;
    const message = { ...fields, service: this.service() };
    const digest = holderDigest(action, this.config.ens.chainId, message);
    if (!signer || !(await this.signatures.verifyHash(signer, digest, signature))) {
      throw new NotHolderError(
        signer
          ? `The signature is not ${signer}'s signature of this ${this.typedData(action, fields).primaryType} message`
          : 'The name has no owner, so no one may act on it as its holder',
      );
    }
    await this.budget.charge(signer);
  }

  /** 403 QUOTA_EXCEEDED when the key charged for claims is spent, revoked, expired or suspended. */
  async refuseSpentKey(keyId: string): Promise<void> {
    const key = await this.keys.find(this.dataSource.manager, keyId);
    const quota = await this.quota.view(this.dataSource.manager, keyId);
    const dead = !key || key.revokedAt || (key.expiresAt && key.expiresAt.getTime() <= Date.now());
    if (dead || key.suspendedReason) {
      throw new QuotaExceededError(
        quota.limit,
        "The key charged for this parent's claims is revoked, expired or suspended",
      );
    }
    if (quota.remaining <= 0)
      throw new QuotaExceededError(quota.limit, "The key charged for this parent's claims has no creation left");
  }

  /** The shared per-signer replay rule (primary names included), in the write's transaction. */
  accept(manager: EntityManager, signer: string, issuedAt: number): Promise<void> {
    return this.primaryNames.acceptSignature(manager, signer, issuedAt);
  }

  private service(): string {
    if (!this.config.publicUrl) {
      throw new DomainError('SERVICE_UNAVAILABLE', 'PUBLIC_URL is unset: holder signatures cannot be checked');
    }
    return serviceOf(this.config.publicUrl);
  }
}
