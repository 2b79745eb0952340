import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';
import { openEmbeddedDatabase } from './embedded-database';
import { runMigrations } from './migrate';

/** `npm run migration:run`: applies pending migrations to DATABASE_URL, or to the embedded database. */
async function main(): Promise<void> {
  const config = loadConfig();
  const embedded = config.databaseUrl ? undefined : await openEmbeddedDatabase(config.dataDir);
  const url = config.databaseUrl ?? embedded!.url;
  const ds = await new DataSource(
    dataSourceOptions({
      url,
      poolSize: 1,
      statementTimeoutMs: 600_000,
      connectTimeoutMs: config.database.connectTimeoutMs,
    }),
  ).initialize();
  try {
    const applied = await runMigrations(ds, new Logger('Migrations'));
    console.log(applied.length ? `applied ${applied.length} migration(s)` : 'no pending migrations');
  } finally {
    await ds.destroy();
    await embedded?.stop();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
