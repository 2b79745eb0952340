import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiKeyEntity } from '../auth/api-key.entity';
import { ApiKeysService } from '../auth/api-keys.service';
import { NotFoundError } from '../common/errors';
import { AppConfig } from '../config/app-config';
import { QuotaService, QuotaView } from '../quota/quota.service';
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

function noSuchKey(id: string): NotFoundError {
  return new NotFoundError(`No API key with id ${id}`);
}

/** Key administration (admin routes and the CLI): the key store of auth and the limit of quota, together. */
@Injectable()
export class KeysService {
  private readonly logger = new Logger(KeysService.name);

  constructor(
    private readonly keys: ApiKeysService,
    private readonly quota: QuotaService,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async issue(dto: CreateApiKeyDto): Promise<CreatedApiKeyResponse> {
    const limit = dto.quota ?? this.config.quotaDefault;
    const { entity, secret } = await this.dataSource.transaction(async (manager) => {
      const created = await this.keys.create(manager, {
        name: dto.name,
        parentNames: dto.parentNames,
        expiresAt: dto.expiresAt ?? null,
      });
      await this.quota.open(manager, created.entity.id, limit);
      return created;
    });
    this.logger.log(`issued API key ${entity.keyPrefix}… (${entity.id}) for ${entity.parentNames.join(', ')}`);
    return { ...toApiKeyResponse(entity, { limit, used: 0, remaining: limit }), key: secret };
  }

  async list(): Promise<ApiKeyResponse[]> {
    const keys = await this.keys.list();
    const quotas = await this.quota.currentMany(keys.map((k) => k.id));
    return keys.map((k) => toApiKeyResponse(k, quotas.get(k.id)!));
  }

  async update(id: string, dto: UpdateApiKeyDto): Promise<ApiKeyResponse> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.keys.find(manager, id))) throw noSuchKey(id);
      await this.keys.update(manager, id, {
        ...(dto.name !== undefined ? { name: dto.name } : {}),
        ...(dto.parentNames !== undefined ? { parentNames: dto.parentNames } : {}),
        ...(dto.expiresAt !== undefined ? { expiresAt: dto.expiresAt } : {}),
      });
      if (dto.quota !== undefined) await this.quota.setLimit(manager, id, dto.quota);
      return toApiKeyResponse((await this.keys.find(manager, id))!, await this.quota.view(manager, id));
    });
  }

  async revoke(id: string): Promise<void> {
    if (!(await this.keys.revoke(this.dataSource.manager, id))) throw noSuchKey(id);
    this.logger.log(`revoked API key ${id}`);
  }
}
