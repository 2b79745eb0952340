import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { NameControl } from './name-control.service';
import { PortalNameEntity } from './portal-name.entity';

/** Sessions end this long after sign-in, or after this long without a request. */
export const SESSION_ABSOLUTE_SECONDS = 8 * 3600;
export const SESSION_IDLE_SECONDS = 3600;

export interface ChallengeRow {
  address: string;
  message: string;
  expired: boolean;
}

export interface NewChallenge {
  nonce: string;
  address: string;
  client: string;
  message: string;
  expiresAt: Date;
}

/** How many challenges wait, and the seconds until the first of them expires. */
export interface LiveCount {
  count: number;
  firstEndsIn: number;
}

export interface LiveChallenges {
  address: LiveCount;
  client: LiveCount;
}

export interface SessionRow {
  address: string;
  csrfToken: string;
}

/** The portal's tables: challenges, sessions (by digest) and the names wallets proved. Times by the database clock. */
@Injectable()
export class PortalRepository {
  async insertChallenge(m: EntityManager, c: NewChallenge): Promise<void> {
    await m.query(
      'INSERT INTO portal_challenges (nonce, address, client, message, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [c.nonce, c.address, c.client, c.message, c.expiresAt],
    );
  }

  /** The challenges still waiting for this address and from this client, each through its index. */
  async liveChallenges(m: EntityManager, address: string, client: string): Promise<LiveChallenges> {
    const rows = (await m.query(
      `SELECT 'address' AS bound, count(*)::int AS count,
              coalesce(ceil(extract(epoch FROM min(expires_at) - now())), 0)::int AS wait
         FROM portal_challenges WHERE address = $1 AND expires_at > now()
       UNION ALL
       SELECT 'client', count(*)::int, coalesce(ceil(extract(epoch FROM min(expires_at) - now())), 0)::int
         FROM portal_challenges WHERE client = $2 AND expires_at > now()`,
      [address, client],
    )) as { bound: keyof LiveChallenges; count: number; wait: number }[];
    const live = {} as LiveChallenges;
    for (const row of rows) live[row.bound] = { count: row.count, firstEndsIn: Math.max(1, row.wait) };
    return live;
  }

  /**
   * Serialises the challenges of one address and of one client until the transaction ends, so that both bounds
   * hold; always the address first, so two requests never wait on each other's second lock.
   */
  async lockChallengers(m: EntityManager, address: string, client: string): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtext('portal-challenge:' || $1))`, [address]);
    await m.query(`SELECT pg_advisory_xact_lock(hashtext('portal-client:' || $1))`, [client]);
  }

  /** Takes the challenge away in one statement, so that of two attempts with one nonce only one can have it. */
  async consumeChallenge(m: EntityManager, nonce: string): Promise<ChallengeRow | null> {
    const [rows] = (await m.query(
      'DELETE FROM portal_challenges WHERE nonce = $1 RETURNING address, message, expires_at <= now() AS expired',
      [nonce],
    )) as [{ address: string; message: string; expired: boolean }[], number];
    return rows[0] ?? null;
  }

  /** Forgets challenges past their expiry (through their expires_at index) and sessions past either limit. */
  async purgeExpired(m: EntityManager): Promise<void> {
    await m.query('DELETE FROM portal_challenges WHERE expires_at <= now()');
    await m.query(
      `DELETE FROM portal_sessions
        WHERE created_at <= now() - make_interval(secs => $1) OR last_seen_at <= now() - make_interval(secs => $2)`,
      [SESSION_ABSOLUTE_SECONDS, SESSION_IDLE_SECONDS],
    );
  }

  async insertSession(m: EntityManager, s: { idHash: string; address: string; csrfToken: string }): Promise<void> {
    await m.query('INSERT INTO portal_sessions (id_hash, address, csrf_token) VALUES ($1, $2, $3)', [
      s.idHash,
      s.address,
      s.csrfToken,
    ]);
  }

  /** The live session of this digest, its idle clock restarted; null when unknown or past either limit. */
  async touchSession(m: EntityManager, idHash: string): Promise<SessionRow | null> {
    const [rows] = (await m.query(
      `UPDATE portal_sessions SET last_seen_at = now()
        WHERE id_hash = $1
          AND created_at > now() - make_interval(secs => $2)
          AND last_seen_at > now() - make_interval(secs => $3)
        RETURNING address, csrf_token`,
      [idHash, SESSION_ABSOLUTE_SECONDS, SESSION_IDLE_SECONDS],
    )) as [{ address: string; csrf_token: string }[], number];
    return rows[0] ? { address: rows[0].address, csrfToken: rows[0].csrf_token } : null;
  }

  async deleteSession(m: EntityManager, idHash: string): Promise<void> {
    await m.query('DELETE FROM portal_sessions WHERE id_hash = $1', [idHash]);
  }

  async upsertName(m: EntityManager, address: string, control: NameControl): Promise<void> {
    await m.query(
      `INSERT INTO portal_names (address, name, role, wrapped, checked_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (address, name) DO UPDATE SET role = EXCLUDED.role, wrapped = EXCLUDED.wrapped, checked_at = now()`,
      [address, control.name, control.role, control.wrapped],
    );
  }

  listNames(m: EntityManager, address: string): Promise<PortalNameEntity[]> {
    return m.getRepository(PortalNameEntity).find({ where: { address }, order: { name: 'ASC' } });
  }
}
