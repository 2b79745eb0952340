import type { Client } from 'pg';

/**
 * Migrations renamed after release (their hand-picked timestamps were in the future, so a newly generated one
 * sorted before them): former name, name now, timestamp now. A database that ran one under its former name
 * has its row renamed before TypeORM compares names, so the migration does not run twice.
 */
export const RENAMED_MIGRATIONS: readonly (readonly [string, string, number])[] = [
  ['PrimaryNames1795800000000', 'PrimaryNames1795756307000', 1795756307000],
  ['DeveloperPortal1795900000000', 'DeveloperPortal1795756308000', 1795756308000],
  ['LegacyParentNames1796000000000', 'LegacyParentNames1795756309000', 1795756309000],
];

/** Renames the recorded rows of RENAMED_MIGRATIONS (no-op on a fresh database); how many were renamed. */
export async function renameRecordedMigrations(client: Client, table: string): Promise<number> {
  const exists = await client.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [table]);
  if (!exists.rows[0].t) return 0;
  const result = await client.query(
    `UPDATE "${table}" AS m SET "name" = r.new_name, "timestamp" = r.ts
       FROM unnest($1::text[], $2::text[], $3::bigint[]) AS r(old_name, new_name, ts)
      WHERE m."name" = r.old_name`,
    [RENAMED_MIGRATIONS.map((r) => r[0]), RENAMED_MIGRATIONS.map((r) => r[1]), RENAMED_MIGRATIONS.map((r) => r[2])],
  );
  return result.rowCount ?? 0;
}
