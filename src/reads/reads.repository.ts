import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { parseWalPosition } from './wal-position';

/** Where a standby stands: the WAL position it has replayed and how many seconds its replay is behind. */
export interface ReplayState {
  replayed: bigint;
  lagSeconds: number;
}

/** The two questions the read router asks: the primary's WAL position, and a standby's replay. */
@Injectable()
export class ReadsRepository {
  /** Asked after a change committed, so the answer is at or past that change's commit record. */
  async primaryPosition(manager: EntityManager): Promise<bigint> {
    const rows: { position: string }[] = await manager.query('SELECT pg_current_wal_lsn()::text AS position');
    return parseWalPosition(rows[0].position);
  }

  /**
   * The standby's replay; null when the server is not in recovery (a primary, or a promoted standby). The lag is 0
   * while everything received is replayed, else the age of the last replayed transaction.
   */
  async replayState(manager: EntityManager): Promise<ReplayState | null> {
    const rows: { replayed: string | null; lag: number }[] = await manager.query(
      `SELECT pg_last_wal_replay_lsn()::text AS replayed,
              CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                   ELSE coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 'Infinity')
              END::float8 AS lag`,
    );
    const row = rows[0];
    if (!row?.replayed) return null;
    return { replayed: parseWalPosition(row.replayed), lagSeconds: Number(row.lag) };
  }
}
