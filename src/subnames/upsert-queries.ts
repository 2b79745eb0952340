import { auditCreatedRowsStatement } from '../audit/audit.statements';
import type { Actor } from '../audit/audit.types';
import { SqlParams } from '../common/persistence/sql-params';
import { chargeStatement } from '../quota/quota.statements';
import { JSONB_FIELDS, OPTIONAL_COLUMNS, stored, SubnameWrite } from './subname-row';

/** SQLSTATE of sns_refuse (migration StatementRefusal): a charged insert found no unit left on the key. */
export const QUOTA_REFUSED_SQLSTATE = 'SNS01';

export function isQuotaRefusal(e: unknown): boolean {
  return (e as { driverError?: { code?: unknown } }).driverError?.code === QUOTA_REFUSED_SQLSTATE;
}

/**
 * The INSERT of a write that stops at the unique full name (RETURNING only a new row).
 * `lock`: on conflict it locks the existing row (an ON CONFLICT update whose condition is false locks the row
 * and changes nothing), so that no other writer can delete or change it before this transaction's update.
 */
function insertQuery(params: SqlParams, w: SubnameWrite, onConflict: 'skip' | 'lock'): string {
  const fixed = [w.fullName, w.parentName, w.label, w.namehash, w.createdBy].map((v) => params.add(v));
  let columns = '';
  let values = '';
  for (const [field, column, cast] of OPTIONAL_COLUMNS) {
    const value = w[field];
    if (value === undefined) continue;
    columns += `, ${column}`;
    values += `, ${params.add(stored(value, cast))}${cast}`;
  }
  return `INSERT INTO subnames (full_name, parent_name, label, namehash, created_by${columns})
      VALUES (${fixed.join(', ')}${values})
      ON CONFLICT (full_name) ${onConflict === 'lock' ? 'DO UPDATE SET updated_at = subnames.updated_at WHERE false' : 'DO NOTHING'}
      RETURNING *`;
}

/**
 * The creation of an absent name with its audit event and its quota charge (to the key `w.createdBy`), in one
 * statement: outside a transaction it commits alone, in one round trip. No row when the name exists (nothing is
 * charged or recorded; see insertQuery for `lock`). With no unit left the statement refuses
 * (QUOTA_REFUSED_SQLSTATE) and writes nothing. The row comes with `quota_limit` and `quota_used`.
 */
export function chargedInsertQuery(params: SqlParams, w: SubnameWrite, by: Actor, onConflict: 'skip' | 'lock'): string {
  const insert = insertQuery(params, w, onConflict);
  const charge = chargeStatement(params, w.createdBy, 1, 'ins');
  const after = OPTIONAL_COLUMNS.map(([, column]) => column);
  const audit = auditCreatedRowsStatement(params, {
    rows: 'ins',
    by,
    action: 'subname.create',
    subject: 'full_name',
    after,
  });
  return `
      WITH ins AS (${insert}), charged AS (${charge}), audit AS (${audit})
      SELECT ins.*, charged."limit" AS quota_limit, charged.used AS quota_used,
             CASE WHEN charged.used IS NULL THEN sns_refuse('no creation left on this key') END AS refused
        FROM ins LEFT JOIN charged ON true`;
}

/**
 * The UPDATE of a write to the row it locks, RETURNING the new row and its values before (`old_<column>`).
 * It mentions only the name and the given fields: PostgreSQL cannot type an unused parameter.
 */
export function updateQuery(params: SqlParams, w: SubnameWrite): string {
  const name = params.add(w.fullName);
  const updates: string[] = [];
  for (const [field, column, cast] of OPTIONAL_COLUMNS) {
    const value = w[field];
    if (value === undefined) continue;
    updates.push(`${column} = ${params.add(stored(value, cast))}${cast}`);
  }
  updates.push('updated_at = now()');
  // The locked self-join reads the row as it was before this statement changed it.
  return `
      UPDATE subnames s SET ${updates.join(', ')}
        FROM (SELECT * FROM subnames WHERE full_name = ${name} FOR UPDATE) old
       WHERE s.id = old.id
      RETURNING s.*, ${OPTIONAL_COLUMNS.map(([, column]) => `old.${column} AS old_${column}`).join(', ')}`;
}

/**
 * The create-or-update of many subnames in one statement: the items come as one JSON array; a left-out
 * field inserts empty and, on conflict, keeps the stored value. Items may leave out different fields: a field
 * that some items give and others do not is taken only for the full names listed for it (a text[] parameter,
 * which PostgreSQL hashes). Rows are written in full-name order, so concurrent batches lock shared names in
 * the same order and cannot deadlock; an item that changes nothing keeps its updated_at.
 * The audit trail's "before" must be the row as this statement found it under its lock, but `old` reads the
 * statement's snapshot (taking no lock of its own, it leaves full-name order the only order in which a batch
 * locks rows). So an existing row is updated only while it is still the version `old` read (same xmin); a
 * row changed, or created, since the snapshot is locked and left as it is, and not returned: the caller runs
 * the statement again for those names, whose rows this transaction now holds and the next snapshot sees.
 */
export function buildUpsertManyQuery(writes: SubnameWrite[]): { sql: string; params: unknown[] } {
  const items = writes.map((w) => ({
    full_name: w.fullName,
    parent_name: w.parentName,
    label: w.label,
    namehash: w.namehash,
    created_by: w.createdBy,
    texts: w.texts ?? null,
    addresses: w.addresses ?? null,
    metadata: w.metadata ?? null,
    contenthash: w.contenthash ?? null,
    owner: w.owner ?? null,
    ttl: w.ttl ?? null,
  }));
  const params: unknown[] = [JSON.stringify(items)];
  const assignments: string[] = [];
  const updated: [column: string, value: string][] = [];
  for (const [field, column] of OPTIONAL_COLUMNS) {
    const givers = writes.filter((w) => w[field] !== undefined);
    if (givers.length === 0) continue;
    let value = `EXCLUDED.${column}`;
    if (givers.length < writes.length) {
      params.push(givers.map((w) => w.fullName));
      value = `CASE WHEN EXCLUDED.full_name = ANY($${params.length}::text[]) THEN EXCLUDED.${column} ELSE subnames.${column} END`;
    }
    assignments.push(`${column} = ${value}`);
    updated.push([column, value]);
  }
  const changed =
    updated.length === 0
      ? 'false'
      : `(${updated.map(([, v]) => v).join(', ')}) IS DISTINCT FROM (${updated.map(([c]) => `subnames.${c}`).join(', ')})`;
  assignments.push(`updated_at = CASE WHEN ${changed} THEN now() ELSE subnames.updated_at END`);
  const inserted = OPTIONAL_COLUMNS.map(([, column]) =>
    JSONB_FIELDS.has(column) ? `coalesce(i.${column}, '{}'::jsonb)` : `i.${column}`,
  );
  const sql = `
    WITH old AS (
      SELECT s.*, s.xmin::text AS old_xmin FROM subnames s
       WHERE s.full_name IN (SELECT n.full_name FROM jsonb_to_recordset($1::jsonb) AS n(full_name text))
    ), up AS (
      INSERT INTO subnames (full_name, parent_name, label, namehash, created_by, ${OPTIONAL_COLUMNS.map(([, c]) => c).join(', ')})
      SELECT i.full_name, i.parent_name, i.label, i.namehash, i.created_by, ${inserted.join(', ')}
        FROM jsonb_to_recordset($1::jsonb) AS i(
               full_name text, parent_name text, label text, namehash text, created_by uuid,
               texts jsonb, addresses jsonb, metadata jsonb, contenthash text, owner text, ttl bigint)
       ORDER BY i.full_name
      ON CONFLICT (full_name) DO UPDATE SET ${assignments.join(', ')}
       WHERE (subnames.full_name, subnames.xmin::text) IN (SELECT o.full_name, o.old_xmin FROM old o)
      RETURNING *, (xmax = 0) AS inserted
    )
    SELECT up.*, old.id IS NOT NULL AS had_old, ${OPTIONAL_COLUMNS.map(([, c]) => `old.${c} AS old_${c}`).join(', ')}
      FROM up LEFT JOIN old ON old.full_name = up.full_name`;
  return { sql, params };
}
