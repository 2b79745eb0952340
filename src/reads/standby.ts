import type { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ReadsRepository, ReplayState } from './reads.repository';

export interface StandbySettings {
  url: string;
  poolSize: number;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
}

/** The URL without its credentials, for the logs. */
function describe(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'standby';
  }
}

/** Connections to one standby, opened on first use and bounded like the primary's (docs/operators.md). */
export function standbyDataSource(s: StandbySettings): DataSource {
  return new DataSource({
    type: 'postgres',
    url: s.url,
    entities: [],
    synchronize: false,
    migrationsRun: false,
    installExtensions: false,
    logging: false,
    extra: {
      max: s.poolSize,
      connectionTimeoutMillis: s.connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      statement_timeout: s.statementTimeoutMs,
      query_timeout: s.statementTimeoutMs + 1000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: 'ens-subname-service:reads',
    },
  });
}

/** One standby of DATABASE_READ_URL and what its last poll said; out of rotation until a poll succeeds. */
export class Standby {
  readonly name: string;
  private state?: ReplayState & { at: number };
  private polling = false;
  private silent = false;

  constructor(
    url: string,
    readonly dataSource: DataSource,
    private readonly repository: ReadsRepository,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.name = describe(url);
  }

  /** Whether it may answer a read that must see `watermark`, by a poll at most `staleMs` old. */
  serves(watermark: bigint, maxLagSeconds: number, staleMs: number): boolean {
    const s = this.state;
    return s !== undefined && this.now() - s.at <= staleMs && s.lagSeconds <= maxLagSeconds && s.replayed >= watermark;
  }

  /** A read failed here: the primary answers until the next good poll. */
  failed(e: unknown): void {
    this.down(e);
  }

  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      if (!this.dataSource.isInitialized) await this.dataSource.initialize();
      const state = await this.repository.replayState(this.dataSource.manager);
      if (!state) throw new Error('not a standby (not in recovery)');
      if (!this.state) this.logger.log(`standby ${this.name} serves reads`);
      this.state = { ...state, at: this.now() };
      this.silent = false;
    } catch (e) {
      this.down(e);
    } finally {
      this.polling = false;
    }
  }

  async stop(): Promise<void> {
    this.state = undefined;
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }

  /** Said once per outage (and at a first poll that fails), not at every poll. */
  private down(e: unknown): void {
    if (!this.silent)
      this.logger.warn(`standby ${this.name} skipped: ${(e as Error).message}; reads go to the primary`);
    this.silent = true;
    this.state = undefined;
  }
}
