import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { auditInsertSql } from '../audit/audit.repository';
import type { Actor } from '../audit/audit.types';
import { bigintAsNumber } from '../common/persistence/column-transformers';
import { isIndexedFragment } from '../common/ens/names';
import { chargeOneSql, type QuotaState } from '../quota/quota.repository';
import type { PageWindow, SubnameFilter } from './search-filter';
import { RecordMap, SubnameEntity } from './subname.entity';

/** Values of a create-or-update; an undefined field is left as stored on update and empty on create. */
export interface SubnameWrite {
  fullName: string;
  parentName: string;
  label: string;
  namehash: string;
  createdBy: string;
  texts?: RecordMap;
  addresses?: RecordMap;
  metadata?: RecordMap;
  contenthash?: string | null;
  owner?: string | null;
  ttl?: number | null;
}

interface SubnameRow {
  id: string;
  full_name: string;
  parent_name: string;
  label: string;
  namehash: string;
  texts: RecordMap;
  addresses: RecordMap;
  metadata: RecordMap;
  contenthash: string | null;
  owner: string | null;
  ttl: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  inserted?: boolean;
}

export function rowToEntity(r: SubnameRow): SubnameEntity {
  return Object.assign(new SubnameEntity(), {
    id: r.id,
    fullName: r.full_name,
    parentName: r.parent_name,
    label: r.label,
    namehash: r.namehash,
    texts: r.texts,
    addresses: r.addresses,
    metadata: r.metadata,
    contenthash: r.contenthash,
    owner: r.owner,
    ttl: bigintAsNumber.from(r.ttl),
    createdBy: r.created_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });
}

const OPTIONAL_COLUMNS = [
  ['texts', 'texts', '::jsonb'],
  ['addresses', 'addresses', '::jsonb'],
  ['metadata', 'metadata', '::jsonb'],
  ['contenthash', 'contenthash', ''],
  ['owner', 'owner', ''],
  ['ttl', 'ttl', '::bigint'],
] as const;

const JSONB_FIELDS = new Set<string>(['texts', 'addresses', 'metadata']);

/**
 * The create-or-update of many subnames in one statement: the items come as one JSON array; a left-out
 * field inserts empty and, on conflict, keeps the stored value. Items may leave out different fields: a field
 * that some items give and others do not is taken only for the full names listed for it (a text[] parameter,
 * which PostgreSQL hashes). Rows are written in full-name order, so concurrent batches lock shared names in
 * the same order and cannot deadlock; an item that changes nothing keeps its updated_at.
 * Exported for the unit spec.
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
  // `old` reads the stored rows from the statement's snapshot, for the audit trail's "before"; taking no lock
  // of its own, it leaves the upsert's full-name order the only order in which a batch locks rows.
  const sql = `
    WITH old AS (
      SELECT s.* FROM subnames s
       WHERE s.full_name IN (SELECT n.full_name FROM jsonb_to_recordset($1::jsonb) AS n(full_name text))
    ), up AS (
      INSERT INTO subnames (full_name, parent_name, label, namehash, created_by, ${OPTIONAL_COLUMNS.map(([, c]) => c).join(', ')})
      SELECT i.full_name, i.parent_name, i.label, i.namehash, i.created_by, ${inserted.join(', ')}
        FROM jsonb_to_recordset($1::jsonb) AS i(
               full_name text, parent_name text, label text, namehash text, created_by uuid,
               texts jsonb, addresses jsonb, metadata jsonb, contenthash text, owner text, ttl bigint)
       ORDER BY i.full_name
      ON CONFLICT (full_name) DO UPDATE SET ${assignments.join(', ')}
      RETURNING *, (xmax = 0) AS inserted
    )
    SELECT up.*, old.id IS NOT NULL AS had_old, ${OPTIONAL_COLUMNS.map(([, c]) => `old.${c} AS old_${c}`).join(', ')}
      FROM up LEFT JOIN old ON old.full_name = up.full_name`;
  return { sql, params };
}

/** `%`, `_` and the escape character itself match literally in a LIKE pattern (default escape: backslash). */
export function escapeLike(fragment: string): string {
  return fragment.replace(/[\\%_]/g, '\\$&');
}

type Param = (value: unknown) => string;

/**
 * The expression IDX_subnames_parent_metadata indexes: the metadata under its parent's name as the only key,
 * `{"oak.eth": {"tier": "gold"}}`. Every search names its parents, so one GIN lookup of parent + key + value
 * finds exactly the rows wanted, where a plain metadata index would hand over every parent's "gold" rows.
 */
const PARENT_METADATA = `jsonb_set('{}'::jsonb, ARRAY[parent_name], metadata)`;

/** Conditions beyond the parents. The keyed metadata condition matches only under the given parents. */
function filterConditions(f: SubnameFilter, param: Param): string[] {
  const where: string[] = [];
  if (f.metadata !== undefined) {
    const keyed = f.parentNames.map((parent) => JSON.stringify({ [parent]: f.metadata }));
    where.push(
      keyed.length === 1
        ? `${PARENT_METADATA} @> ${param(keyed[0])}::jsonb`
        : `${PARENT_METADATA} @> ANY(${param(keyed)}::jsonb[])`,
    );
  }
  if (f.labelSearch !== undefined) {
    // A fragment the trigram index cannot serve would make it hand over every row: `label || ''` keeps the
    // planner on the parent index, reading that parent's rows (one parent only, the DTO sees to that).
    const column = isIndexedFragment(f.labelSearch) ? 'label' : `(label || '')`;
    where.push(`${column} ILIKE ${param(`%${escapeLike(f.labelSearch)}%`)}`);
  }
  if (f.owner !== undefined) where.push(`lower(owner) = ${param(f.owner)}`);
  return where;
}

/**
 * One statement, so that the page and its total come from one snapshot in one round trip; the page is picked
 * on (created_at, id) first and only its rows are read whole. Three shapes, each with its index:
 * - one parent, no filter: an index-only count, and the page straight off IDX_subnames_parent_created;
 * - several parents, no filter: the same count, and the parents' index ranges merged in page order (one
 *   UNION ALL branch per parent, a Merge Append), so a page reads offset + limit entries in all, however
 *   deep and however many parents;
 * - with filters: the matching rows are found once (their indexes, ANDed as the planner sees fit),
 *   counted, and the page is sorted out of them.
 * Exported for the bench, which EXPLAINs exactly this SQL.
 */
export function buildSearchQuery(f: SubnameFilter, window: PageWindow): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const param: Param = (value) => {
    params.push(value);
    return `$${params.length}`;
  };
  const single = f.parentNames.length === 1;
  // Bound only where used: PostgreSQL cannot type a parameter that the statement never mentions.
  const parentsParam = () => param(single ? f.parentNames[0] : f.parentNames);
  const parentMatch = (ref: string) => (single ? `parent_name = ${ref}` : `parent_name = ANY(${ref}::text[])`);
  const filters = filterConditions(f, param);
  let ctes: string;
  if (filters.length > 0) {
    // The keyed metadata condition already confines the match to the parents.
    const where = f.metadata !== undefined ? filters : [parentMatch(parentsParam()), ...filters];
    ctes = `matches AS MATERIALIZED (SELECT id, created_at FROM subnames WHERE ${where.join(' AND ')}),
         total AS (SELECT count(*) AS n FROM matches),
         page AS (SELECT id, created_at FROM matches ORDER BY created_at, id LIMIT ${param(window.limit)} OFFSET ${param(window.offset)})`;
  } else {
    const parents = parentsParam();
    const limit = param(window.limit);
    const offset = param(window.offset);
    const pageOrder = `ORDER BY created_at, id LIMIT ${limit} OFFSET ${offset}`;
    const total = `total AS (SELECT count(*) AS n FROM subnames WHERE ${parentMatch(parents)})`;
    const branches = f.parentNames.map(
      (_, i) =>
        `(SELECT id, created_at FROM subnames WHERE parent_name = ${parents}[${i + 1}] ORDER BY created_at, id)`,
    );
    ctes = single
      ? `${total},
         page AS (SELECT id, created_at FROM subnames WHERE ${parentMatch(parents)} ${pageOrder})`
      : `${total},
         page AS (SELECT id, created_at FROM (${branches.join(' UNION ALL ')}) AS merged ${pageOrder})`;
  }
  const sql = `
    WITH ${ctes}
    SELECT total.n AS total_items, s.*
      FROM total LEFT JOIN (page JOIN subnames s ON s.id = page.id) ON true
     ORDER BY s.created_at, s.id`;
  return { sql, params };
}

function stored(value: unknown, cast: string): unknown {
  return cast === '::jsonb' ? JSON.stringify(value) : value;
}

/** The INSERT of a write that stops at the unique full name (RETURNING the new row), and its parameters. */
function insertOf(w: SubnameWrite): { sql: string; params: unknown[] } {
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
      ON CONFLICT (full_name) DO NOTHING
      RETURNING *`;
  return { sql, params };
}

/** SQLSTATE of sns_refuse (migration StatementRefusal): createCharged found no unit left. */
export const QUOTA_REFUSED_SQLSTATE = 'SNS01';

/** The subnames table, in raw SQL with one row mapper; every method runs on the manager it is given. */
@Injectable()
export class SubnamesRepository {
  /**
   * The creation of an absent name, its audit event and its quota charge in one statement, which commits alone
   * (no BEGIN, no COMMIT: one round trip). Null when the name exists (the insert stops at the unique index, and
   * nothing is charged or recorded). When the key has no unit left the statement refuses (QUOTA_REFUSED_SQLSTATE)
   * and writes nothing: the row lock of the charge serialises a key's writers and its condition is re-checked
   * after waiting, as in QuotaRepository.charge.
   */
  async createCharged(
    manager: EntityManager,
    w: SubnameWrite,
    by: Actor,
  ): Promise<{ entity: SubnameEntity; quota: QuotaState } | null> {
    const { sql: insert, params } = insertOf(w);
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
    const rows: (SubnameRow & { quota_limit: number; quota_used: number })[] = await manager.query(sql, params);
    const row = rows[0];
    if (!row) return null;
    return { entity: rowToEntity(row), quota: { limit: row.quota_limit, used: row.quota_used } };
  }

  /**
   * Create-or-update keyed by the unique full name, handing back the stored row as it was before an update
   * (for the audit trail). A creation is one statement: an insert that stops at the unique index. When the
   * name exists (or a concurrent writer has just created it: the insert waits for that one at the index),
   * a second statement locks the row and updates it, returning both its old and new values. `startWithUpdate`:
   * the caller's insert has just stopped at the name (createCharged), so the first round updates.
   */
  async upsert(
    manager: EntityManager,
    w: SubnameWrite,
    startWithUpdate = false,
  ): Promise<{ entity: SubnameEntity; inserted: boolean; previous: SubnameEntity | null }> {
    const { sql: insert, params } = insertOf(w);
    // The update mentions only the name and the given fields: PostgreSQL cannot type an unused parameter.
    const updateParams: unknown[] = [w.fullName];
    const updates: string[] = [];
    for (const [field, column, cast] of OPTIONAL_COLUMNS) {
      const value = w[field];
      if (value === undefined) continue;
      updateParams.push(stored(value, cast));
      updates.push(`${column} = $${updateParams.length}${cast}`);
    }
    updates.push('updated_at = now()');
    // The locked self-join reads the row as it was before this statement changed it.
    const update = `
      UPDATE subnames s SET ${updates.join(', ')}
        FROM (SELECT * FROM subnames WHERE full_name = $1 FOR UPDATE) old
       WHERE s.id = old.id
      RETURNING s.*, ${OPTIONAL_COLUMNS.map(([, column]) => `old.${column} AS old_${column}`).join(', ')}`;
    // A row deleted between the two statements lets the insert win on the next round; a few rounds suffice.
    for (let round = 0; round < 3; round++) {
      if (round > 0 || !startWithUpdate) {
        const created: SubnameRow[] = await manager.query(insert, params);
        if (created[0]) return { entity: rowToEntity(created[0]), inserted: true, previous: null };
      }
      // An UPDATE answers [rows, rowCount] through TypeORM's postgres driver.
      const [updated]: [(SubnameRow & Record<string, unknown>)[], number] = await manager.query(update, updateParams);
      if (updated[0]) {
        const row = updated[0];
        const old = Object.fromEntries(OPTIONAL_COLUMNS.map(([, column]) => [column, row[`old_${column}`]]));
        return { entity: rowToEntity(row), inserted: false, previous: rowToEntity({ ...row, ...old } as SubnameRow) };
      }
    }
    throw new Error(`upsert of ${w.fullName} kept meeting concurrent deletes`);
  }

  /**
   * Create-or-update of many subnames with distinct full names in one statement (see buildUpsertManyQuery).
   * Results in the order of `writes`.
   */
  async upsertMany(
    manager: EntityManager,
    writes: SubnameWrite[],
  ): Promise<{ entity: SubnameEntity; inserted: boolean; previous: SubnameEntity | null }[]> {
    if (writes.length === 0) return [];
    const { sql, params } = buildUpsertManyQuery(writes);
    const rows: (SubnameRow & Record<string, unknown>)[] = await manager.query(sql, params);
    const byName = new Map(rows.map((r) => [r.full_name, r]));
    return writes.map((w) => {
      const row = byName.get(w.fullName)!;
      const old = Object.fromEntries(OPTIONAL_COLUMNS.map(([, column]) => [column, row[`old_${column}`]]));
      return {
        entity: rowToEntity(row),
        inserted: row.inserted === true,
        // Null also for a name another writer created after this statement's snapshot.
        previous: row.had_old === true ? rowToEntity({ ...row, ...old } as SubnameRow) : null,
      };
    });
  }

  /**
   * One page of the subnames under `parentName` at any depth (full names ending in `.parentName`), in the
   * order of their reversed full names, after the cursor `after` (a reversed full name). The order is a
   * prefix range of IDX_subnames_full_name_reversed, so each page is one index range scan, however large the
   * table, and names under one parent come together.
   */
  async exportPage(
    manager: EntityManager,
    parentName: string,
    after: string | null,
    limit: number,
  ): Promise<{ items: SubnameEntity[]; cursor: string | null }> {
    // Reversed, every name under oak.eth starts with 'hte.kao.'; in byte order they all sort before 'hte.kao/'.
    const rows: (SubnameRow & { export_key: string })[] = await manager.query(
      `SELECT s.*, reverse(s.full_name) AS export_key
         FROM subnames s
        WHERE reverse(s.full_name) COLLATE "C" > coalesce($2::text, reverse('.' || $1::text))
          AND reverse(s.full_name) COLLATE "C" < (reverse($1::text) || '/')
        ORDER BY reverse(s.full_name) COLLATE "C"
        LIMIT $3`,
      [parentName, after, limit],
    );
    return { items: rows.map(rowToEntity), cursor: rows.length > 0 ? rows[rows.length - 1].export_key : null };
  }

  async count(manager: EntityManager): Promise<number> {
    const rows: { n: number }[] = await manager.query('SELECT count(*)::int AS n FROM subnames');
    return rows[0].n;
  }

  /** Up to `limit` full names after `after`, in order: a keyset page, one range of UQ_subnames_full_name. */
  async fullNamesAfter(manager: EntityManager, after: string, limit: number): Promise<string[]> {
    const rows: { full_name: string }[] = await manager.query(
      'SELECT full_name FROM subnames WHERE full_name > $1 ORDER BY full_name LIMIT $2',
      [after, limit],
    );
    return rows.map((r) => r.full_name);
  }

  async findByFullName(manager: EntityManager, fullName: string): Promise<SubnameEntity | null> {
    const rows: SubnameRow[] = await manager.query('SELECT * FROM subnames WHERE full_name = $1', [fullName]);
    return rows[0] ? rowToEntity(rows[0]) : null;
  }

  /**
   * One page of the subnames that match, in creation order (then id), and how many match in all. Run it in a
   * transaction of its own: the statement runs under `statement_timeout` (SET LOCAL, that transaction only), so
   * a public search never costs more database time than that; past it PostgreSQL cancels it (SQLSTATE 57014).
   */
  async searchPage(
    manager: EntityManager,
    filter: SubnameFilter,
    window: PageWindow,
    timeoutMs: number,
  ): Promise<{ items: SubnameEntity[]; totalItems: number }> {
    const { sql, params } = buildSearchQuery(filter, window);
    await manager.query(`SET LOCAL statement_timeout = ${Math.trunc(timeoutMs)}`);
    const rows: (Partial<SubnameRow> & { total_items: string })[] = await manager.query(sql, params);
    return {
      totalItems: Number(rows[0]?.total_items ?? 0),
      items: rows.filter((r) => r.id !== null && r.id !== undefined).map((r) => rowToEntity(r as SubnameRow)),
    };
  }

  /** The deleted row, or null when there was none. */
  async deleteByFullName(manager: EntityManager, fullName: string): Promise<SubnameEntity | null> {
    // For DELETE … RETURNING the postgres driver answers [rows, affectedCount].
    const [rows]: [SubnameRow[], number] = await manager.query(
      'DELETE FROM subnames WHERE full_name = $1 RETURNING *',
      [fullName],
    );
    return rows[0] ? rowToEntity(rows[0]) : null;
  }
}
