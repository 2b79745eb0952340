import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config';
import { dataSourceOptions } from './src/database/data-source-options';

// The data source of the TypeORM CLI (migration:generate, the drift check); it needs a real PostgreSQL.
const config = loadConfig();
if (!config.databaseUrl) {
  throw new Error(
    'ormconfig.ts: set DATABASE_URL to a PostgreSQL database (the TypeORM CLI cannot use the embedded one)',
  );
}

export default new DataSource(
  dataSourceOptions({
    url: config.databaseUrl,
    poolSize: 2,
    statementTimeoutMs: 60_000,
    connectTimeoutMs: config.database.connectTimeoutMs,
  }),
);
