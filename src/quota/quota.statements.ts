import { SqlParams, sqlIdentifier } from '../common/persistence/sql-params';

/** A key's quota row as the statements return it. */
export interface QuotaState {
  limit: number;
  used: number;
}

/**
 * The UPDATE that takes `units` from key `keyId` if that many are left, RETURNING the state after (`"limit"`,
 * `used`), or no row (nothing taken). The row lock serialises a key's charges across connections and replicas,
 * and the condition is re-checked after waiting, so `used` never passes `limit`. `whenRowsIn`: a relation of the
 * caller's statement (a CTE); nothing is taken unless it has a row, so a statement that creates charges only a
 * creation.
 */
export function chargeStatement(params: SqlParams, keyId: string, units: number, whenRowsIn?: string): string {
  const key = params.add(keyId);
  const n = params.add(units);
  const when = whenRowsIn === undefined ? '' : ` AND EXISTS (SELECT 1 FROM ${sqlIdentifier(whenRowsIn)})`;
  return `UPDATE key_quotas SET used = used + ${n}::int
           WHERE api_key_id = ${key}::uuid AND used + ${n}::int <= quota_limit${when}
           RETURNING quota_limit AS "limit", used`;
}

/** The SELECT of key `keyId`'s state (`"limit"`, `used`): no row when the key has no quota. */
export function quotaStateStatement(params: SqlParams, keyId: string): string {
  return `SELECT quota_limit AS "limit", used FROM key_quotas WHERE api_key_id = ${params.add(keyId)}::uuid`;
}
