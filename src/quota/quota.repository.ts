import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

export interface QuotaState {
  limit: number;
  used: number;
}

/**
 * The UPDATE that charges one unit to key `keyParam` when `condition` holds and a unit is left, for a statement
 * that creates and charges at once (SubnamesRepository.createCharged): RETURNING the state after, as `charge`.
 */
export function chargeOneSql(keyParam: string, condition: string): string {
  return `UPDATE key_quotas SET used = used + 1
           WHERE api_key_id = ${keyParam} AND used + 1 <= quota_limit AND ${condition}
           RETURNING quota_limit AS "limit", used`;
}

/** The key_quotas table, in raw SQL; every method runs on the manager it is given. */
@Injectable()
export class QuotaRepository {
  async create(manager: EntityManager, apiKeyId: string, limit: number): Promise<void> {
    await manager.query('INSERT INTO key_quotas (api_key_id, quota_limit, used) VALUES ($1, $2, 0)', [apiKeyId, limit]);
  }

  /**
   * Takes `units` if that many are left, in one statement: the row lock serialises concurrent charges of a key
   * across connections and replicas, and the condition is re-checked after waiting, so `used` never
   * passes `limit`. Null when fewer are left (nothing is taken).
   */
  async charge(manager: EntityManager, apiKeyId: string, units: number): Promise<QuotaState | null> {
    // For UPDATE … RETURNING the postgres driver answers [rows, affectedCount].
    const [rows]: [QuotaState[], number] = await manager.query(
      `UPDATE key_quotas SET used = used + $2
        WHERE api_key_id = $1 AND used + $2 <= quota_limit
        RETURNING quota_limit AS "limit", used`,
      [apiKeyId, units],
    );
    return rows[0] ?? null;
  }

  async find(manager: EntityManager, apiKeyId: string): Promise<QuotaState | null> {
    const rows: QuotaState[] = await manager.query(
      'SELECT quota_limit AS "limit", used FROM key_quotas WHERE api_key_id = $1',
      [apiKeyId],
    );
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
