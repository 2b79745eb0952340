import { auditInsertSql } from '../audit/audit.repository';
import type { Actor } from '../audit/audit.types';
import { chargeOneSql } from '../quota/quota.repository';
import { OPTIONAL_COLUMNS, SubnameWrite } from './subname-row';
import { insertQuery } from './upsert-queries';

/** SQLSTATE of sns_refuse (migration StatementRefusal): the charged create found no unit left. */
export const QUOTA_REFUSED_SQLSTATE = 'SNS01';

/**
 * The creation of an absent name, its audit event and its quota charge in one statement, which commits alone
 * (no BEGIN, no COMMIT: one round trip). It returns no row when the name exists (the insert stops at the unique
 * index, and nothing is charged or recorded). When the key has no unit left the statement refuses
 * (QUOTA_REFUSED_SQLSTATE) and writes nothing: the row lock of the charge serialises a key's writers and its
 * condition is re-checked after waiting, as in QuotaRepository.charge. The row comes with `quota_limit` and
 * `quota_used`.
 */
export function chargedCreateStatement(w: SubnameWrite, by: Actor): { sql: string; params: unknown[] } {
  const { sql: insert, params } = insertQuery(w);
  const actor = `$${params.push(by.actor)}::text`;
  const requestId = `$${params.push(by.requestId)}::text`;
  const after = `jsonb_build_object(${OPTIONAL_COLUMNS.map(([field, column]) => `'${field}', ins.${column}`).join(', ')})`;
  const sql = `
      WITH ins AS (${insert}),
           charged AS (${chargeOneSql('$5::uuid', 'EXISTS (SELECT 1 FROM ins)')}),
           audit AS (${auditInsertSql({
             from: 'ins',
             actor,
             requestId,
             action: "'subname.create'",
             subject: 'ins.full_name',
             before: 'NULL',
             after,
           })})
      SELECT ins.*, charged."limit" AS quota_limit, charged.used AS quota_used,
             CASE WHEN charged.used IS NULL THEN sns_refuse('no creation left on this key') END AS refused
        FROM ins LEFT JOIN charged ON true`;
  return { sql, params };
}
