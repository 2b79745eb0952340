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

export interface SessionRow {
  address: string;
  csrfToken: string;
}

/** The portal's tables: challenges, sessions (by digest) and the names wallets proved. Times by the database clock. */
@Injectable()
export class PortalRepository {
  async insertChallenge(m: EntityManager, c: { nonce: string; address: string; message: string; expiresAt: Date }) {
    await m.query('INSERT INTO portal_challenges (nonce, address, message, expires_at) VALUES ($1, $2, $3, $4)', [
      c.nonce,
      c.address,
      c.message,
      c.expiresAt,
    ]);
  }

  /** The address's challenges still waiting, and the seconds until the first of them expires. */
  async liveChallenges(m: EntityManager, address: string): Promise<{ count: number; firstEndsIn: number }> {
    const [row] = (await m.query(
      `SELECT count(*)::int AS count, coalesce(ceil(extract(epoch FROM min(expires_at) - now())), 0)::int AS wait
         FROM portal_challenges WHERE address = $1 AND expires_at > now()`,
      [address],
    )) as { count: number; wait: number }[];
    return { count: row.count, firstEndsIn: Math.max(1, row.wait) };
  }

  /** Serialises the challenges of one address until the transaction ends, so that a bound on them holds. */
  async lockAddress(m: EntityManager, address: string): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtext('portal-challenge:' || $1))`, [address]);
  }

  /** Takes the challenge away in one statement, so that of two attempts with one nonce only one can have it. */
  async consumeChallenge(m: EntityManager, nonce: string): Promise<ChallengeRow | null> {
    const [rows] = (await m.query(
      'DELETE FROM portal_challenges WHERE nonce = $1 RETURNING address, message, expires_at <= now() AS expired',
      [nonce],
    )) as [{ address: string; message: string; expired: boolean }[], number];
    return rows[0] ?? null;
  }

  /** Forgets challenges past their expiry and sessions past either limit. */
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
