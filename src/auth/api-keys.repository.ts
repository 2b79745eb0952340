import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';

export interface NewApiKey {
  name: string;
  keyPrefix: string;
  keyHash: string;
  parentNames: string[];
  expiresAt: Date | null;
  issuedBy?: string | null;
}

/** A key of wallet $1 that still works: neither revoked nor expired. */
const LIVE_ISSUED = (k: string) =>
  `${k}.issued_by = $1 AND ${k}.revoked_at IS NULL AND (${k}.expires_at IS NULL OR ${k}.expires_at > now())`;

export type ApiKeyChanges = Partial<Pick<ApiKeyEntity, 'name' | 'parentNames' | 'expiresAt'>>;

/** The api_keys table through TypeORM's repository API; every method runs on the manager it is given. */
@Injectable()
export class ApiKeysRepository {
  insert(manager: EntityManager, key: NewApiKey): Promise<ApiKeyEntity> {
    const repo = manager.getRepository(ApiKeyEntity);
    return repo.save(repo.create({ ...key, issuedBy: key.issuedBy ?? null, revokedAt: null }));
  }

  /** The key of this digest: its current one, or its previous one while that is still within its grace period. */
  findByHash(manager: EntityManager, keyHash: string): Promise<ApiKeyEntity | null> {
    return manager
      .getRepository(ApiKeyEntity)
      .createQueryBuilder('k')
      .where('k.key_hash = :keyHash', { keyHash })
      .orWhere('(k.previous_key_hash = :keyHash AND k.previous_key_expires_at > now())', { keyHash })
      .getOne();
  }

  findById(manager: EntityManager, id: string): Promise<ApiKeyEntity | null> {
    return manager.getRepository(ApiKeyEntity).findOneBy({ id });
  }

  /** The key, locked until the caller's transaction ends, so that its changes and their audit agree. */
  findByIdForUpdate(manager: EntityManager, id: string): Promise<ApiKeyEntity | null> {
    return manager
      .getRepository(ApiKeyEntity)
      .createQueryBuilder('k')
      .setLock('pessimistic_write')
      .where('k.id = :id', { id })
      .getOne();
  }

  /**
   * A new digest for the key; the current one becomes the previous, accepted for `graceSeconds` more by the
   * database clock (the one authentication compares with). With no grace the previous digest is dropped.
   */
  async rotate(
    manager: EntityManager,
    id: string,
    next: { keyPrefix: string; keyHash: string },
    graceSeconds: number,
  ): Promise<ApiKeyEntity> {
    await manager.query(
      `UPDATE api_keys
          SET previous_key_hash = CASE WHEN $4::int > 0 THEN key_hash END,
              previous_key_expires_at = CASE WHEN $4::int > 0 THEN now() + make_interval(secs => $4::int) END,
              key_hash = $2, key_prefix = $3, updated_at = now()
        WHERE id = $1`,
      [id, next.keyHash, next.keyPrefix, graceSeconds],
    );
    return (await this.findById(manager, id))!;
  }

  listAll(manager: EntityManager): Promise<ApiKeyEntity[]> {
    return manager.getRepository(ApiKeyEntity).find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The keys a wallet issued through the portal, oldest first. */
  listIssuedBy(manager: EntityManager, issuer: string): Promise<ApiKeyEntity[]> {
    return manager
      .getRepository(ApiKeyEntity)
      .find({ where: { issuedBy: issuer }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * Serialises the issues of one wallet until the transaction ends, then counts its live keys: in all, and per
   * parent among `parents`, so that two concurrent issues cannot both pass one bound.
   */
  async lockAndCountIssued(
    manager: EntityManager,
    issuer: string,
    parents: string[],
  ): Promise<{ total: number; perParent: Map<string, number> }> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('portal-keys:' || $1))`, [issuer]);
    const rows = (await manager.query(
      `SELECT p.parent, count(k.id)::int AS n,
              (SELECT count(*)::int FROM api_keys l WHERE ${LIVE_ISSUED('l')}) AS total
         FROM unnest($2::text[]) AS p(parent)
         LEFT JOIN api_keys k ON ${LIVE_ISSUED('k')} AND p.parent = ANY(k.parent_names)
        GROUP BY p.parent`,
      [issuer, parents],
    )) as { parent: string; n: number; total: number }[];
    return { total: rows[0]?.total ?? 0, perParent: new Map(rows.map((r) => [r.parent, r.n])) };
  }

  /** Every unrevoked key issued through the portal: those whose issuer's control is checked again. */
  listLivePortalKeys(manager: EntityManager): Promise<ApiKeyEntity[]> {
    return manager
      .getRepository(ApiKeyEntity)
      .createQueryBuilder('k')
      .where('k.issued_by IS NOT NULL AND k.revoked_at IS NULL')
      .orderBy('k.created_at', 'ASC')
      .addOrderBy('k.id', 'ASC')
      .getMany();
  }

  /** Sets or clears the suspension; true when it changed. */
  async setSuspension(manager: EntityManager, id: string, reason: string | null): Promise<boolean> {
    const result = await manager.query(
      `UPDATE api_keys SET suspended_reason = $2, updated_at = now()
        WHERE id = $1 AND suspended_reason IS DISTINCT FROM $2 RETURNING id`,
      [id, reason],
    );
    // For UPDATE … RETURNING the postgres driver answers [rows, affectedCount].
    return (result as [unknown, number])[1] > 0;
  }

  async update(manager: EntityManager, id: string, changes: ApiKeyChanges): Promise<void> {
    if (Object.keys(changes).length > 0) await manager.getRepository(ApiKeyEntity).update({ id }, changes);
  }

  /** Marks the key revoked once; a second revocation keeps the first time. */
  async revoke(manager: EntityManager, id: string): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({ revokedAt: () => 'COALESCE(revoked_at, now())' })
      .where('id = :id', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
