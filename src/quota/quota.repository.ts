import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlParams } from '../common/persistence/sql-params';
import { chargeStatement, QuotaState, quotaStateStatement } from './quota.statements';

/** The key_quotas table, in raw SQL; every method runs on the manager it is given. */
@Injectable()
export class QuotaRepository {
  async create(manager: EntityManager, apiKeyId: string, limit: number): Promise<void> {
    await manager.query('INSERT INTO key_quotas (api_key_id, quota_limit, used) VALUES ($1, $2, 0)', [apiKeyId, limit]);
  }

  /** Takes `units` if that many are left (see chargeStatement); null when fewer are left (nothing is taken). */
  async charge(manager: EntityManager, apiKeyId: string, units: number): Promise<QuotaState | null> {
    const params = new SqlParams();
    const sql = chargeStatement(params, apiKeyId, units);
    // For UPDATE … RETURNING the postgres driver answers [rows, affectedCount].
    const [rows]: [QuotaState[], number] = await manager.query(sql, params.values);
    return rows[0] ?? null;
  }

  async find(manager: EntityManager, apiKeyId: string): Promise<QuotaState | null> {
    const params = new SqlParams();
    const rows: QuotaState[] = await manager.query(quotaStateStatement(params, apiKeyId), params.values);
    return rows[0] ?? null;
  }

  async findMany(manager: EntityManager, apiKeyIds: string[]): Promise<Map<string, QuotaState>> {
    if (apiKeyIds.length === 0) return new Map();
    const rows: (QuotaState & { id: string })[] = await manager.query(
      'SELECT api_key_id AS id, quota_limit AS "limit", used FROM key_quotas WHERE api_key_id = ANY($1::uuid[])',
      [apiKeyIds],
    );
    return new Map(rows.map((r) => [r.id, { limit: r.limit, used: r.used }]));
  }

  async setLimit(manager: EntityManager, apiKeyId: string, limit: number): Promise<void> {
    await manager.query('UPDATE key_quotas SET quota_limit = $2 WHERE api_key_id = $1', [apiKeyId, limit]);
  }
}
