import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { KeyQuotaEntity } from './key-quota.entity';

export interface QuotaState {
  limit: number;
  used: number;
}

@Injectable()
export class QuotaRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(manager: EntityManager, apiKeyId: string, limit: number): Promise<void> {
    await manager.getRepository(KeyQuotaEntity).insert({ apiKeyId, limit, used: 0 });
  }

  /**
   * Takes one unit if one is left, in one statement: the row lock serialises concurrent charges of a key
   * across connections and replicas, and the condition is re-checked after waiting, so `used` never
   * passes `limit`. Null when nothing is left.
   */
  async charge(manager: EntityManager, apiKeyId: string): Promise<QuotaState | null> {
    // For UPDATE … RETURNING the postgres driver answers [rows, affectedCount].
    const [rows]: [QuotaState[], number] = await manager.query(
      `UPDATE key_quotas SET used = used + 1
        WHERE api_key_id = $1 AND used < quota_limit
        RETURNING quota_limit AS "limit", used`,
      [apiKeyId],
    );
    return rows[0] ?? null;
  }

  async find(apiKeyId: string, manager: EntityManager = this.dataSource.manager): Promise<QuotaState | null> {
    const row = await manager.getRepository(KeyQuotaEntity).findOneBy({ apiKeyId });
    return row ? { limit: row.limit, used: row.used } : null;
  }

  async findMany(apiKeyIds: string[]): Promise<Map<string, QuotaState>> {
    if (apiKeyIds.length === 0) return new Map();
    const rows = await this.dataSource
      .getRepository(KeyQuotaEntity)
      .createQueryBuilder('q')
      .where('q.api_key_id IN (:...ids)', { ids: apiKeyIds })
      .getMany();
    return new Map(rows.map((r) => [r.apiKeyId, { limit: r.limit, used: r.used }]));
  }

  async setLimit(manager: EntityManager, apiKeyId: string, limit: number): Promise<void> {
    await manager.getRepository(KeyQuotaEntity).update({ apiKeyId }, { limit });
  }
}
