import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { Metrics } from './metrics';

/** What /metrics answers: the registry, with the pool gauges read from this application's own pg pool. */
@Injectable()
export class MetricsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly metrics: Metrics,
  ) {}

  scrape(): Promise<string> {
    // The TypeORM driver's `master` is the pg pool (none once the data source is closed).
    this.metrics.setPoolGauges((this.dataSource.driver as PostgresDriver).master as Pool | undefined);
    return this.metrics.registry.metrics();
  }
}
