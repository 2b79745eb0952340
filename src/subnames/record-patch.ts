import { OPTIONAL_COLUMNS } from './subname-row';
import type { RecordMap } from './subname.entity';

/** A holder's change to a stored name: keys set and removed, contenthash (undefined keeps it), a new owner. */
export interface RecordPatch {
  setTexts: RecordMap;
  removeTexts: string[];
  setAddresses: RecordMap;
  removeAddresses: string[];
  contenthash?: string | null;
  owner?: string;
}

/**
 * The UPDATE of a patch, applied only while `holder` (any letter case) owns the row, decided by the one statement:
 * maps merged and keys removed in SQL, so a concurrent write to other keys is never lost. RETURNING the new row
 * and its values before (`old_<column>`), as updateQuery does.
 */
export function patchQuery(fullName: string, holder: string, p: RecordPatch): { sql: string; params: unknown[] } {
  const params: unknown[] = [
    fullName,
    holder.toLowerCase(),
    JSON.stringify(p.setTexts),
    p.removeTexts,
    JSON.stringify(p.setAddresses),
    p.removeAddresses,
    p.contenthash !== undefined,
    p.contenthash ?? null,
    p.owner ?? null,
  ];
  const sql = `
      UPDATE subnames s SET texts = (old.texts || $3::jsonb) - $4::text[],
             addresses = (old.addresses || $5::jsonb) - $6::text[],
             contenthash = CASE WHEN $7::boolean THEN $8::text ELSE old.contenthash END,
             owner = coalesce($9::text, old.owner),
             updated_at = now()
        FROM (SELECT * FROM subnames WHERE full_name = $1 FOR UPDATE) old
       WHERE s.id = old.id AND lower(old.owner) = $2
      RETURNING s.*, ${OPTIONAL_COLUMNS.map(([, column]) => `old.${column} AS old_${column}`).join(', ')}`;
  return { sql, params };
}
