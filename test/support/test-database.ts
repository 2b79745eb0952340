import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { runMigrations } from '../../src/database/migrate';
import { startEmbeddedProcess } from './embedded-process';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * A database for one test run: with DATABASE_URL, a new database on that server (so concurrent runs never
 * meet); without it, an in-memory embedded PGlite served on a loopback port by a process of its own, built from
 * dist/ (jest's sandbox refuses PGlite's dynamic import, and no test then shares its event loop). Migrations are
 * applied once.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  let url: string;
  let drop: () => Promise<void>;
  if (base) {
    const name = `sns_test_${process.pid}_${randomBytes(3).toString('hex')}`;
    const admin = new Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    url = withDatabase(base, name);
    drop = async () => {
      const c = new Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  } else {
    const embedded = await startEmbeddedProcess(undefined);
    url = embedded.url;
    drop = () => embedded.stop();
  }
  // Quiet: a test run's output is its tests' (a failing migration still throws).
  const ds = await new DataSource({
    ...dataSourceOptions({ url, poolSize: 1, statementTimeoutMs: 60_000, connectTimeoutMs: 10_000 }),
    logging: ['error'],
  }).initialize();
  await runMigrations(ds, { log: () => undefined });
  await ds.destroy();
  return { url, drop };
}

type Query = (sql: string) => Promise<{ tablename: string }[]>;

async function truncateAll(query: Query): Promise<void> {
  const tables = await query(
    `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'`,
  );
  if (tables.length > 0) {
    await query(`TRUNCATE ${tables.map((t) => `"${t.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`);
  }
}

/** Empties every table but the migrations, so each test file starts from nothing. */
export async function resetDatabase(ds: DataSource): Promise<void> {
  await truncateAll((sql) => ds.query(sql));
}

/** The same, for test files that only start service processes: through a plain connection to the run's database. */
export async function resetTestDatabase(): Promise<void> {
  const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await truncateAll(async (sql) => (await client.query<{ tablename: string }>(sql)).rows);
  } finally {
    await client.end();
  }
}
