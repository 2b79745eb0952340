import { isIndexedFragment } from '../common/ens/names';
import type { PageWindow, SubnameFilter } from './search-filter';

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
