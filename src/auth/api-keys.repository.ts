import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';

export interface NewApiKey {
  name: string;
  keyPrefix: string;
  keyHash: string;
  parentNames: string[];
  expiresAt: Date | null;
}

@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, key: NewApiKey): Promise<ApiKeyEntity> {
    const repo = manager.getRepository(ApiKeyEntity);
    return repo.save(repo.create({ ...key, revokedAt: null }));
  }

  findByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.dataSource.getRepository(ApiKeyEntity).findOneBy({ keyHash });
  }

  findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<ApiKeyEntity | null> {
    return manager.getRepository(ApiKeyEntity).findOneBy({ id });
  }

  listAll(): Promise<ApiKeyEntity[]> {
    return this.dataSource.getRepository(ApiKeyEntity).find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async update(
    manager: EntityManager,
    id: string,
    changes: Partial<Pick<ApiKeyEntity, 'name' | 'parentNames' | 'expiresAt'>>,
  ): Promise<void> {
    if (Object.keys(changes).length > 0) await manager.getRepository(ApiKeyEntity).update({ id }, changes);
  }

  /** Marks the key revoked once; a second revocation keeps the first time. */
  async revoke(id: string): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({ revokedAt: () => 'COALESCE(revoked_at, now())' })
      .where('id = :id', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
