import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { DomainError, NotFoundError, UnauthorizedError, ValidationFailedError } from '../common/errors';
import { isSameOrUnder, normalizeName } from '../common/ens';
import { QuotaService, QuotaView } from '../quota/quota.service';
import { ApiKeyEntity } from './api-key.entity';
import { AuthenticatedKey, digestsEqual, generateApiKey, hashApiKey } from './api-key';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeyResponse, CreateApiKeyDto, CreatedApiKeyResponse, UpdateApiKeyDto } from './dto/api-key.dto';

export function toApiKeyResponse(key: ApiKeyEntity, quota: QuotaView): ApiKeyResponse {
  return {
    id: key.id,
    name: key.name,
    keyPrefix: key.keyPrefix,
    parentNames: key.parentNames,
    quota: quota.limit,
    used: quota.used,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    createdAt: key.createdAt.toISOString(),
  };
}

function parseDate(value: string | null | undefined, field: string): Date | null | undefined {
  if (value === undefined || value === null) return value;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new ValidationFailedError([{ field, message: 'must be an ISO 8601 date' }]);
  return date;
}

function normalizeParents(parentNames: string[]): string[] {
  return [...new Set(parentNames.map((n) => normalizeName(n)))];
}

@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly quota: QuotaService,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async issue(dto: CreateApiKeyDto): Promise<CreatedApiKeyResponse> {
    const { key, keyPrefix, keyHash } = generateApiKey();
    const limit = dto.quota ?? this.config.quotaDefault;
    const entity = await this.dataSource.transaction(async (manager) => {
      const created = await this.keys.insert(manager, {
        name: dto.name,
        keyPrefix,
        keyHash,
        parentNames: normalizeParents(dto.parentNames),
        expiresAt: parseDate(dto.expiresAt, 'expiresAt') ?? null,
      });
      await this.quota.open(manager, created.id, limit);
      return created;
    });
    this.logger.log(`issued API key ${keyPrefix}… (${entity.id}) for ${entity.parentNames.join(', ')}`);
    return { ...toApiKeyResponse(entity, { limit, used: 0, remaining: limit }), key };
  }

  async list(): Promise<ApiKeyResponse[]> {
    const keys = await this.keys.listAll();
    const quotas = await this.quota.viewMany(keys.map((k) => k.id));
    return keys.map((k) => toApiKeyResponse(k, quotas.get(k.id) ?? { limit: 0, used: 0, remaining: 0 }));
  }

  async update(id: string, dto: UpdateApiKeyDto): Promise<ApiKeyResponse> {
    const entity = await this.dataSource.transaction(async (manager) => {
      const existing = await this.keys.findById(id, manager);
      if (!existing) throw new NotFoundError('NOT_FOUND', `No API key with id ${id}`);
      await this.keys.update(manager, id, {
        ...(dto.name !== undefined ? { name: dto.name } : {}),
        ...(dto.parentNames !== undefined ? { parentNames: normalizeParents(dto.parentNames) } : {}),
        ...(dto.expiresAt !== undefined ? { expiresAt: parseDate(dto.expiresAt, 'expiresAt') } : {}),
      });
      if (dto.quota !== undefined) await this.quota.setLimit(manager, id, dto.quota);
      return (await this.keys.findById(id, manager))!;
    });
    return toApiKeyResponse(entity, await this.quota.view(id));
  }

  async revoke(id: string): Promise<void> {
    if (!(await this.keys.revoke(id))) throw new NotFoundError('NOT_FOUND', `No API key with id ${id}`);
    this.logger.log(`revoked API key ${id}`);
  }

  /** Resolves a presented key; any failure is the same 401 so that callers learn nothing about keys. */
  async authenticate(presented: string | undefined): Promise<AuthenticatedKey> {
    if (!presented || presented.length > 200) throw new UnauthorizedError();
    const digest = hashApiKey(presented);
    const key = await this.keys.findByHash(digest);
    if (!key || !digestsEqual(key.keyHash, digest)) throw new UnauthorizedError();
    if (key.revokedAt) throw new UnauthorizedError('This API key has been revoked');
    if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) throw new UnauthorizedError('This API key has expired');
    return { id: key.id, keyPrefix: key.keyPrefix, parentNames: key.parentNames };
  }

  /** Refuses a write under a parent that the key does not cover. */
  authorize(key: AuthenticatedKey, parentName: string): void {
    if (!key.parentNames.some((scope) => isSameOrUnder(parentName, scope))) {
      throw new DomainError('FORBIDDEN_PARENT', `This API key may not write under ${parentName}`);
    }
  }
}
