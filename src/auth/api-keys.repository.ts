import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';

export interface NewApiKey {
  name: string;
  keyPrefix: string;
  keyHash: string;
  parentNames: string[];
  expiresAt: Date | null;
}

export type ApiKeyChanges = Partial<Pick<ApiKeyEntity, 'name' | 'parentNames' | 'expiresAt'>>;

/** The api_keys table through TypeORM's repository API; every method runs on the manager it is given. */
@Injectable()
export class ApiKeysRepository {
  insert(manager: EntityManager, key: NewApiKey): Promise<ApiKeyEntity> {
    const repo = manager.getRepository(ApiKeyEntity);
    return repo.save(repo.create({ ...key, revokedAt: null }));
  }

  findByHash(manager: EntityManager, keyHash: string): Promise<ApiKeyEntity | null> {
    return manager.getRepository(ApiKeyEntity).findOneBy({ keyHash });
  }

  findById(manager: EntityManager, id: string): Promise<ApiKeyEntity | null> {
    return manager.getRepository(ApiKeyEntity).findOneBy({ id });
  }

  listAll(manager: EntityManager): Promise<ApiKeyEntity[]> {
    return manager.getRepository(ApiKeyEntity).find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async update(manager: EntityManager, id: string, changes: ApiKeyChanges): Promise<void> {
    if (Object.keys(changes).length > 0) await manager.getRepository(ApiKeyEntity).update({ id }, changes);
  }

  /** Marks the key revoked once; a second revocation keeps the first time. */
  async revoke(manager: EntityManager, id: string): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({ revokedAt: () => 'COALESCE(revoked_at, now())' })
      .where('id = :id', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
