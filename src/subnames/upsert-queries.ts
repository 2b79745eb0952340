import { JSONB_FIELDS, OPTIONAL_COLUMNS, stored, SubnameWrite } from './subname-row';

/**
 * The INSERT of a write that stops at the unique full name (RETURNING only a new row), and its parameters.
 * `lock`: on conflict it locks the existing row (an ON CONFLICT update whose condition is false locks the row
 * and changes nothing), so that no other writer can delete or change it before this transaction's update.
 */
export function insertQuery(w: SubnameWrite, onConflict: 'skip' | 'lock' = 'skip'): { sql: string; params: unknown[] } {
  const params: unknown[] = [w.fullName, w.parentName, w.label, w.namehash, w.createdBy];
  let columns = '';
  let values = '';
  for (const [field, column, cast] of OPTIONAL_COLUMNS) {
    const value = w[field];
    if (value === undefined) continue;
    params.push(stored(value, cast));
    columns += `, ${column}`;
    values += `, $${params.length}${cast}`;
  }
  const sql = `INSERT INTO subnames (full_name, parent_name, label, namehash, created_by${columns})
      VALUES ($1, $2, $3, $4, $5${values})
      ON CONFLICT (full_name) ${onConflict === 'lock' ? 'DO UPDATE SET updated_at = subnames.updated_at WHERE false' : 'DO NOTHING'}
      RETURNING *`;
  return { sql, params };
}

/**
 * The UPDATE of a write to the row it locks, RETURNING the new row and its values before (`old_<column>`).
 * It mentions only the name and the given fields: PostgreSQL cannot type an unused parameter.
 */
export function updateQuery(w: SubnameWrite): { sql: string; params: unknown[] } {
  const params: unknown[] = [w.fullName];
  const updates: string[] = [];
  for (const [field, column, cast] of OPTIONAL_COLUMNS) {
    const value = w[field];
    if (value === undefined) continue;
    params.push(stored(value, cast));
    updates.push(`${column} = $${params.length}${cast}`);
  }
  updates.push('updated_at = now()');
  // The locked self-join reads the row as it was before this statement changed it.
  const sql = `
      UPDATE subnames s SET ${updates.join(', ')}
        FROM (SELECT * FROM subnames WHERE full_name = $1 FOR UPDATE) old
       WHERE s.id = old.id
      RETURNING s.*, ${OPTIONAL_COLUMNS.map(([, column]) => `old.${column} AS old_${column}`).join(', ')}`;
  return { sql, params };
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
