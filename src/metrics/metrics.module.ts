import { Injectable, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { MetricsController } from './metrics.controller';
import { observePool } from './metrics';

/** Points the pool gauges at this application's pg pool (the TypeORM driver's `master`). */
@Injectable()
export class PoolObserver implements OnModuleInit, OnApplicationShutdown {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    observePool(() => (this.dataSource.driver as PostgresDriver).master as Pool | undefined);
  }

  onApplicationShutdown(): void {
    observePool(undefined);
  }
}

@Module({ controllers: [MetricsController], providers: [PoolObserver] })
export class MetricsModule {}
