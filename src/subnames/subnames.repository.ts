import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
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
}
