import { insertApiKey, useMigratedDatabase } from '../../test/support/pglite-data-source';
import { SqlParams } from '../common/persistence/sql-params';
import { chargeStatement, QuotaState, quotaStateStatement } from './quota.statements';

const KEY = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

// The builders' SQL run for real on the migrated schema (PGlite), alone and inside a caller's statement.
describe('quota statements', () => {
  const db = useMigratedDatabase('key_quotas, api_keys');

  const state = async (keyId: string): Promise<QuotaState | undefined> => {
    const params = new SqlParams();
    return ((await db.manager.query(quotaStateStatement(params, keyId), params.values)) as QuotaState[])[0];
  };
  /** A caller's statement that makes `made` rows (0 or 1) in a CTE, then charges one unit when it made one. */
  const chargeWhenMade = async (made: number): Promise<QuotaState[]> => {
    const params = new SqlParams();
    const madeCte = `made AS (SELECT n FROM generate_series(1, ${params.add(made)}::int) AS n)`;
    const sql = `WITH ${madeCte}, charged AS (${chargeStatement(params, KEY, 1, 'made')}) SELECT * FROM charged`;
    return db.manager.query(sql, params.values);
  };

  beforeEach(async () => {
    for (const [id, hash, limit] of [
      [KEY, 'e'.repeat(64), 3],
      [OTHER, 'f'.repeat(64), 1],
    ] as const) {
      await insertApiKey(db.manager, id, hash);
      await db.manager.query('INSERT INTO key_quotas (api_key_id, quota_limit, used) VALUES ($1, $2, 0)', [id, limit]);
    }
  });

  describe(chargeStatement.name, () => {
    it('takes the units while that many are left, returning the state after; past the limit no row, nothing taken', async () => {
      const charge = async (units: number) => {
        const params = new SqlParams();
        const [rows] = (await db.manager.query(chargeStatement(params, KEY, units), params.values)) as [QuotaState[]];
        return rows;
      };
      expect(await charge(2)).toEqual([{ limit: 3, used: 2 }]);
      expect(await charge(2)).toEqual([]);
      expect(await charge(1)).toEqual([{ limit: 3, used: 3 }]);
      expect(await state(KEY)).toEqual({ limit: 3, used: 3 });
      expect(await state(OTHER)).toEqual({ limit: 1, used: 0 });
    });

    it('given a relation of the caller’s statement, charges only when it has a row', async () => {
      expect(await chargeWhenMade(0)).toEqual([]);
      expect(await state(KEY)).toEqual({ limit: 3, used: 0 });
      expect(await chargeWhenMade(1)).toEqual([{ limit: 3, used: 1 }]);
      expect(await state(KEY)).toEqual({ limit: 3, used: 1 });
    });

    it('binds the key and the units as parameters, and refuses a relation that is not a plain identifier', () => {
      const params = new SqlParams();
      const sql = chargeStatement(params, KEY, 2, 'ins');
      expect(params.values).toEqual([KEY, 2]);
      expect(sql).not.toContain(KEY);
      expect(() => chargeStatement(new SqlParams(), KEY, 1, 'ins) OR (true')).toThrow('not a plain SQL identifier');
    });
  });

  describe(quotaStateStatement.name, () => {
    it('reads a key’s limit and used; no row for a key without a quota', async () => {
      expect(await state(OTHER)).toEqual({ limit: 1, used: 0 });
      expect(await state('00000000-0000-4000-8000-000000000009')).toBeUndefined();
    });
  });
});
