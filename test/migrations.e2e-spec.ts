import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/migrate';
import { RENAMED_MIGRATIONS } from '../src/database/migration-renames';

const MIGRATION_FILES = readdirSync(join(__dirname, '..', 'src', 'database', 'migrations')).filter((f) =>
  f.endsWith('.ts'),
);

/** The migration files as TypeORM names them: `<Name><timestamp>` from `<timestamp>-<Name>.ts`. */
const EXPECTED_NAMES = MIGRATION_FILES.map((f) => {
  const [timestamp, name] = f.replace(/\.ts$/, '').split('-');
  return `${name}${timestamp}`;
}).sort();

describe('migrations', () => {
  let ds: DataSource;
  const recorded = async () =>
    (await ds.query(`SELECT "timestamp", "name" FROM "migrations" ORDER BY "name"`)) as {
      timestamp: string;
      name: string;
    }[];
  const reversedIndexes = async () =>
    Number(
      (
        (await ds.query(
          `SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = 'IDX_subnames_full_name_reversed'`,
        )) as { n: number }[]
      )[0].n,
    );

  beforeAll(async () => {
    // The run's database, migrated from nothing by the global setup.
    ds = await new DataSource(
      dataSourceOptions({
        url: process.env.TEST_DATABASE_URL!,
        poolSize: 1,
        statementTimeoutMs: 60_000,
        connectTimeoutMs: 10_000,
      }),
    ).initialize();
  });

  afterAll(async () => {
    await ds.destroy();
  });

  it('every migration file has a timestamp of its own', () => {
    const timestamps = MIGRATION_FILES.map((f) => f.split('-')[0]);
    expect(new Set(timestamps).size).toBe(timestamps.length);
  });

  it('a fresh database records each migration once, under its own timestamp', async () => {
    const rows = await recorded();
    expect(rows.map((r) => r.name)).toEqual(EXPECTED_NAMES);
    expect(new Set(rows.map((r) => String(r.timestamp))).size).toBe(rows.length);
    expect(await reversedIndexes()).toBe(1);
    expect(await runMigrations(ds, new Logger('TestMigrations'))).toEqual([]);
  });

  it('a database that ran ExportIndex under the timestamp it shared with AuditTrail migrates cleanly', async () => {
    // As such a database is: the same schema, the export index recorded under its former name.
    await ds.query(
      `UPDATE "migrations" SET "name" = 'ExportIndex1795610000000', "timestamp" = 1795610000000 WHERE "name" = 'ExportIndex1795615000000'`,
    );
    expect((await recorded()).filter((r) => String(r.timestamp) === '1795610000000')).toHaveLength(2);

    expect(await runMigrations(ds, new Logger('TestMigrations'))).toEqual(['ExportIndex1795615000000']);

    const rows = await recorded();
    expect(rows.map((r) => r.name)).toEqual(EXPECTED_NAMES);
    expect(new Set(rows.map((r) => String(r.timestamp))).size).toBe(rows.length);
    expect(await reversedIndexes()).toBe(1);
    expect(await runMigrations(ds, new Logger('TestMigrations'))).toEqual([]);
  });

  it('a database that ran the renamed migrations under their future timestamps does not run them again', async () => {
    // As such a database is: the same schema, the three recorded under their former names and timestamps.
    for (const [former, now] of RENAMED_MIGRATIONS) {
      await ds.query(`UPDATE "migrations" SET "name" = $1, "timestamp" = $2 WHERE "name" = $3`, [
        former,
        Number(former.replace(/^\D+/, '')),
        now,
      ]);
    }
    expect((await recorded()).map((r) => r.name)).toEqual(
      expect.arrayContaining(['PrimaryNames1795800000000', 'LegacyParentNames1796000000000']),
    );

    expect(await runMigrations(ds, new Logger('TestMigrations'))).toEqual([]);

    const rows = await recorded();
    expect(rows.map((r) => r.name)).toEqual(EXPECTED_NAMES);
    expect(rows.find((r) => r.name === 'DeveloperPortal1795756308000')?.timestamp).toEqual('1795756308000');
  });
});
