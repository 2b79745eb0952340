import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
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

/** The WHERE clause of a search; every condition has an index (see the SearchIndexes migration). */
function searchConditions(f: SubnameFilter, param: (value: unknown) => string): string {
  const where =
    f.parentNames.length === 1
      ? [`parent_name = ${param(f.parentNames[0])}`]
      : [`parent_name = ANY(${param(f.parentNames)}::text[])`];
  if (f.labelSearch !== undefined) where.push(`label ILIKE ${param(`%${escapeLike(f.labelSearch)}%`)}`);
  if (f.owner !== undefined) where.push(`lower(owner) = ${param(f.owner)}`);
  if (f.metadata !== undefined) where.push(`metadata @> ${param(JSON.stringify(f.metadata))}::jsonb`);
  return where.join(' AND ');
}

/**
 * One statement, so the page and its total come from one snapshot in one round trip. The page is chosen on
 * (created_at, id) alone, which an index answers without visiting the table for the skipped rows; only
 * the rows of the page are then read whole. Exported for the bench, which EXPLAINs exactly this SQL.
 */
export function buildSearchQuery(f: SubnameFilter, window: PageWindow): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = searchConditions(f, param);
  const sql = `
    WITH total AS (SELECT count(*) AS n FROM subnames WHERE ${where}),
         page AS (
           SELECT id, created_at FROM subnames WHERE ${where}
            ORDER BY created_at, id LIMIT ${param(window.limit)} OFFSET ${param(window.offset)}
         )
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

  /** One page of the subnames that match, in creation order (then id), and how many match in all. */
  async searchPage(filter: SubnameFilter, window: PageWindow): Promise<{ items: SubnameEntity[]; totalItems: number }> {
    const { sql, params } = buildSearchQuery(filter, window);
    const rows: (Partial<SubnameRow> & { total_items: string })[] = await this.dataSource.query(sql, params);
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
