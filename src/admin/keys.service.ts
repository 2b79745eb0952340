import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiKeyEntity } from '../auth/api-key.entity';
import { ApiKeysService, type IssuerLimits } from '../auth/api-keys.service';
import { changedFields } from '../audit/audit-diff';
import { AuditService } from '../audit/audit.service';
import type { Actor, AuditFields } from '../audit/audit.types';
import { NotFoundError } from '../common/errors';
import { AppConfig } from '../config/app-config';
import { QuotaService, QuotaView } from '../quota/quota.service';
import {
  ApiKeyResponse,
  CreateApiKeyDto,
  toApiKeyResponse,
  CreatedApiKeyResponse,
  RotateApiKeyDto,
  UpdateApiKeyDto,
} from './dto/api-key.dto';
import { KeyRevokedError } from './keys.errors';

function noSuchKey(id: string): NotFoundError {
  return new NotFoundError(`No API key with id ${id}`);
}

/** What the audit trail records of a key: its settings and readable prefix, never the key or its digest. */
function auditedKey(key: ApiKeyEntity, quota: Pick<QuotaView, 'limit'>): AuditFields {
  return {
    name: key.name,
    keyPrefix: key.keyPrefix,
    parentNames: key.parentNames,
    quota: quota.limit,
    expiresAt: key.expiresAt?.toISOString() ?? null,
  };
}

/** Key administration (admin routes and the CLI): the key store of auth and the limit of quota, together. */
@Injectable()
export class KeysService {
  private readonly logger = new Logger(KeysService.name);

  constructor(
    private readonly keys: ApiKeysService,
    private readonly quota: QuotaService,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** `issuedBy`: the wallet that issued the key through the developer portal (its control is checked again). */
  async issue(
    dto: CreateApiKeyDto,
    by: Actor,
    issuedBy: string | null = null,
    limits?: IssuerLimits,
  ): Promise<CreatedApiKeyResponse> {
    const limit = dto.quota ?? this.config.quotaDefault;
    const { entity, secret } = await this.dataSource.transaction(async (manager) => {
      const created = await this.keys.create(
        manager,
        {
          name: dto.name,
          parentNames: dto.parentNames,
          expiresAt: dto.expiresAt ?? null,
          issuedBy,
        },
        limits,
      );
      await this.quota.open(manager, created.entity.id, limit);
      const after = auditedKey(created.entity, { limit });
      await this.audit.record(manager, { by, action: 'key.issue', subject: created.entity.id, before: null, after });
      return created;
    });
    this.logger.log({
      msg: `issued API key ${entity.keyPrefix}… (${entity.id}) for ${entity.parentNames.join(', ')}`,
      requestId: by.requestId,
    });
    return { ...toApiKeyResponse(entity, { limit, used: 0, remaining: limit }), key: secret };
  }

  async list(): Promise<ApiKeyResponse[]> {
    const keys = await this.keys.list();
    const quotas = await this.quota.currentMany(keys.map((k) => k.id));
    return keys.map((k) => toApiKeyResponse(k, quotas.get(k.id)!));
  }

  async update(id: string, dto: UpdateApiKeyDto, by: Actor): Promise<ApiKeyResponse> {
    return this.dataSource.transaction(async (manager) => {
      const before = await this.keys.lock(manager, id);
      if (!before) throw noSuchKey(id);
      const quotaBefore = await this.quota.view(manager, id);
      await this.keys.update(manager, id, {
        ...(dto.name !== undefined ? { name: dto.name } : {}),
        ...(dto.parentNames !== undefined ? { parentNames: dto.parentNames } : {}),
        ...(dto.expiresAt !== undefined ? { expiresAt: dto.expiresAt } : {}),
      });
      if (dto.quota !== undefined) await this.quota.setLimit(manager, id, dto.quota);
      const after = (await this.keys.find(manager, id))!;
      const quotaAfter = await this.quota.view(manager, id);
      const change = changedFields(auditedKey(before, quotaBefore), auditedKey(after, quotaAfter));
      await this.audit.record(manager, { by, action: 'key.update', subject: id, ...change });
      return toApiKeyResponse(after, quotaAfter);
    });
  }

  /**
   * A new secret for the same key (id, scope, limit and used count kept); the old secret is accepted for
   * `graceSeconds` more, then never again. Rotating again replaces the previous secret. A revoked key stays
   * revoked: 409.
   */
  async rotate(id: string, dto: RotateApiKeyDto, by: Actor): Promise<CreatedApiKeyResponse> {
    const graceSeconds = dto.graceSeconds ?? 0;
    const { response, entity } = await this.dataSource.transaction(async (manager) => {
      const before = await this.keys.lock(manager, id);
      if (!before) throw noSuchKey(id);
      if (before.revokedAt) throw new KeyRevokedError(id);
      const { entity, secret } = await this.keys.rotate(manager, id, graceSeconds);
      const change = changedFields(
        { keyPrefix: before.keyPrefix, previousKeyExpiresAt: before.previousKeyExpiresAt?.toISOString() ?? null },
        { keyPrefix: entity.keyPrefix, previousKeyExpiresAt: entity.previousKeyExpiresAt?.toISOString() ?? null },
      );
      await this.audit.record(manager, { by, action: 'key.rotate', subject: id, ...change });
      const quota = await this.quota.view(manager, id);
      return { response: { ...toApiKeyResponse(entity, quota), key: secret }, entity };
    });
    this.logger.log({
      msg: `rotated API key ${id} to ${entity.keyPrefix}… (previous secret valid for ${graceSeconds} s)`,
      requestId: by.requestId,
    });
    return response;
  }

  async revoke(id: string, by: Actor): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const before = await this.keys.lock(manager, id);
      if (!before) throw noSuchKey(id);
      await this.keys.revoke(manager, id);
      const after = (await this.keys.find(manager, id))!;
      const change = changedFields(
        { revokedAt: before.revokedAt?.toISOString() ?? null },
        { revokedAt: after.revokedAt?.toISOString() ?? null },
      );
      await this.audit.record(manager, { by, action: 'key.revoke', subject: id, ...change });
    });
    this.logger.log({ msg: `revoked API key ${id}`, requestId: by.requestId });
  }
}
