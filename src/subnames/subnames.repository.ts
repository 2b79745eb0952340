import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isIndexedFragment, type PageWindow, type SubnameFilter } from './search-filter';
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
    ttl: r.ttl === null ? null : Number(r.ttl),
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

@Injectable()
export class SubnamesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Create-or-update in one statement keyed by the unique full name. Concurrent writers of one new name
   * meet at the unique index: one inserts, the others wait for it and update. `inserted` tells which.
   */
  async upsert(manager: EntityManager, w: SubnameWrite): Promise<{ entity: SubnameEntity; inserted: boolean }> {
    const params: unknown[] = [w.fullName, w.parentName, w.label, w.namehash, w.createdBy];
    const insertCols: string[] = [];
    const insertVals: string[] = [];
    const updates: string[] = [];
    for (const [field, column, cast] of OPTIONAL_COLUMNS) {
      const value = w[field];
      if (value === undefined) continue;
      params.push(cast === '::jsonb' ? JSON.stringify(value) : value);
      insertCols.push(column);
      insertVals.push(`$${params.length}${cast}`);
      updates.push(`${column} = EXCLUDED.${column}`);
    }
    updates.push('updated_at = now()');
    const sql = `
      INSERT INTO subnames (full_name, parent_name, label, namehash, created_by${insertCols.map((c) => `, ${c}`).join('')})
      VALUES ($1, $2, $3, $4, $5${insertVals.map((v) => `, ${v}`).join('')})
      ON CONFLICT (full_name) DO UPDATE SET ${updates.join(', ')}
      RETURNING *, (xmax = 0) AS inserted`;
    const rows: SubnameRow[] = await manager.query(sql, params);
    return { entity: rowToEntity(rows[0]), inserted: rows[0].inserted === true };
  }

  async findByFullName(fullName: string): Promise<SubnameEntity | null> {
    const rows: SubnameRow[] = await this.dataSource.query('SELECT * FROM subnames WHERE full_name = $1', [fullName]);
    return rows[0] ? rowToEntity(rows[0]) : null;
  }

  async existsByFullName(fullName: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM subnames WHERE full_name = $1', [fullName]);
    return rows.length > 0;
  }

  /**
   * One page of the subnames that match, in creation order (then id), and how many match in all. The statement
   * runs under its own `statement_timeout` (SET LOCAL, for this transaction only): a public search never
   * costs more database time than that, whatever it asks; past it PostgreSQL cancels it (SQLSTATE 57014).
   */
  async searchPage(
    filter: SubnameFilter,
    window: PageWindow,
    timeoutMs: number,
  ): Promise<{ items: SubnameEntity[]; totalItems: number }> {
    const { sql, params } = buildSearchQuery(filter, window);
    const rows: (Partial<SubnameRow> & { total_items: string })[] = await this.dataSource.transaction(async (m) => {
      await m.query(`SET LOCAL statement_timeout = ${Math.trunc(timeoutMs)}`);
      return m.query(sql, params);
    });
    return {
      totalItems: Number(rows[0]?.total_items ?? 0),
      items: rows.filter((r) => r.id !== null && r.id !== undefined).map((r) => rowToEntity(r as SubnameRow)),
    };
  }

  /** True when a row was deleted. */
  async deleteByFullName(fullName: string): Promise<boolean> {
    // For DELETE the postgres driver answers [rows, affectedCount].
    const [, affected]: [unknown[], number] = await this.dataSource.query('DELETE FROM subnames WHERE full_name = $1', [
      fullName,
    ]);
    return affected > 0;
  }
}
