import { bigintAsNumber } from '../common/persistence/column-transformers';
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

/** A subnames row as the driver hands it over (snake_case columns, ttl as a bigint string). */
export interface SubnameRow {
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

/** The fields a write may give or leave out: field, column and the cast of its parameter. */
export const OPTIONAL_COLUMNS = [
  ['texts', 'texts', '::jsonb'],
  ['addresses', 'addresses', '::jsonb'],
  ['metadata', 'metadata', '::jsonb'],
  ['contenthash', 'contenthash', ''],
  ['owner', 'owner', ''],
  ['ttl', 'ttl', '::bigint'],
] as const;

export const JSONB_FIELDS = new Set<string>(['texts', 'addresses', 'metadata']);

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

/** The row as it was before an update, from the `old_<column>` values an update statement returns beside it. */
export function previousOf(row: SubnameRow & Record<string, unknown>): SubnameEntity {
  const old = Object.fromEntries(OPTIONAL_COLUMNS.map(([, column]) => [column, row[`old_${column}`]]));
  return rowToEntity({ ...row, ...old } as SubnameRow);
}

/** A value as its parameter is sent: the jsonb maps as JSON text. */
export function stored(value: unknown, cast: string): unknown {
  return cast === '::jsonb' ? JSON.stringify(value) : value;
}
