import { Global, Logger, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { PoolWatch } from '../common/persistence/pool-watch';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';
import { EmbeddedDatabase, startEmbeddedDatabase } from './embedded-database';
import { runMigrations } from './migrate';

/** Holds the embedded database when DATABASE_URL is unset, so it can be stopped at shutdown. */
export class DatabaseTarget implements OnApplicationShutdown {
  constructor(
    readonly url: string,
    readonly embedded?: EmbeddedDatabase,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.embedded?.stop();
  }
}

const logger = new Logger('Database');

/**
 * How long a query may wait for the embedded database's one pooled connection (at least): a burst of requests
 * queues there one transaction at a time, which is slowness to wait out, not an outage to answer 503 to.
 */
export const EMBEDDED_POOL_WAIT_MS = 60_000;

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig, DatabaseTarget, PoolWatch],
      extraProviders: [
        {
          provide: DatabaseTarget,
          inject: [AppConfig],
          useFactory: async (config: AppConfig) => {
            if (config.databaseUrl) return new DatabaseTarget(config.databaseUrl);
            const embedded = await startEmbeddedDatabase(config.dataDir);
            logger.log(`DATABASE_URL unset: embedded PGlite database in ${config.dataDir}/pgdata`);
            return new DatabaseTarget(embedded.url, embedded);
          },
        },
      ],
      useFactory: (config: AppConfig, target: DatabaseTarget, watch: PoolWatch) => ({
        ...dataSourceOptions(
          {
            url: target.url,
            // PGlite is one PostgreSQL session: one pooled connection keeps transactions apart.
            poolSize: target.embedded ? 1 : config.database.poolSize,
            statementTimeoutMs: config.database.statementTimeoutMs,
            connectTimeoutMs: target.embedded
              ? Math.max(config.database.connectTimeoutMs, EMBEDDED_POOL_WAIT_MS)
              : config.database.connectTimeoutMs,
          },
          watch,
        ),
        retryAttempts: 5,
        retryDelay: 2000,
      }),
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        await runMigrations(dataSource, new Logger('Migrations'));
        return dataSource;
      },
    }),
  ],
  providers: [PoolWatch],
  exports: [PoolWatch],
})
export class DatabaseModule implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly watch: PoolWatch,
  ) {}

  /** The application's pool watch: its pool's connections report to it, and its waits for one are watched. */
  onModuleInit(): void {
    this.watch.watch((this.dataSource.driver as PostgresDriver).master as Pool);
  }
}
