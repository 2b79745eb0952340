import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { auditInsertStatement } from '../audit/audit.statements';
import type { Actor } from '../audit/audit.types';
import { SqlParams } from '../common/persistence/sql-params';
import { QuotaState, quotaStateStatement } from '../quota/quota.statements';
import type { PageWindow, SubnameFilter } from './search-filter';
import { buildSearchQuery } from './search-query';
import { patchQuery, RecordPatch } from './record-patch';
import { subnameWriteEvent } from './subname-audit';
import { previousOf, rowToEntity, SubnameRow, SubnameWrite } from './subname-row';
import { SubnameEntity } from './subname.entity';
import { buildUpsertManyQuery, chargedInsertQuery, updateQuery } from './upsert-queries';

/** A written name: its row, whether it was created, its values before an update, and its key's quota after. */
export interface SubnameWritten {
  entity: SubnameEntity;
  created: boolean;
  previous: SubnameEntity | null;
  /** Undefined when the key has no quota. */
  quota: QuotaState | undefined;
}

/** The subnames table, in raw SQL with one row mapper; every method runs on the manager it is given. */
@Injectable()
export class SubnamesRepository {
  /**
   * Create-or-update of one name by its unique full name, with its audit event; a creation is charged to the key
   * `w.createdBy`. Most writes create: one statement (chargedInsertQuery) that, on a manager outside a
   * transaction, commits alone. A name that exists is updated in a transaction (the manager's, or one opened
   * here). `createOnly`: null when the name exists. A creation with no unit left throws the driver's error of
   * QUOTA_REFUSED_SQLSTATE, having written nothing.
   */
  async write(manager: EntityManager, w: SubnameWrite, by: Actor, createOnly = false): Promise<SubnameWritten | null> {
    const created = await this.chargedInsert(manager, w, by, 'skip');
    if (created || createOnly) return created;
    return manager.transaction((m) => this.update(m, w, by));
  }

  /**
   * When the update finds no row (a concurrent delete took it), the charged insert either creates the name or
   * locks the row a concurrent writer has just created, which the second update then finds: a race with deletes
   * and other writers settles within these few statements.
   */
  private async update(m: EntityManager, w: SubnameWrite, by: Actor): Promise<SubnameWritten> {
    for (let round = 0; round < 2; round++) {
      if (round > 0) {
        const created = await this.chargedInsert(m, w, by, 'lock');
        if (created) return created;
      }
      const updated = await this.recordedUpdate(m, w, by);
      if (updated) return updated;
    }
    // Unreachable: the insert either created the row or locked it for the update that followed.
    throw new Error(`upsert of ${w.fullName} found its locked row gone`);
  }

  /** The update of a stored name, then its event (the changed fields, before and after) and the key's quota. */
  private async recordedUpdate(m: EntityManager, w: SubnameWrite, by: Actor): Promise<SubnameWritten | null> {
    const params = new SqlParams();
    // An UPDATE answers [rows, rowCount] through TypeORM's postgres driver.
    const [rows]: [(SubnameRow & Record<string, unknown>)[], number] = await m.query(
      updateQuery(params, w),
      params.values,
    );
    if (!rows[0]) return null;
    const entity = rowToEntity(rows[0]);
    const previous = previousOf(rows[0]);
    const recorded = new SqlParams();
    const audit = auditInsertStatement(recorded, [subnameWriteEvent(by, entity, previous)]);
    const quota: QuotaState[] = await m.query(
      `WITH audit AS (${audit}) ${quotaStateStatement(recorded, w.createdBy)}`,
      recorded.values,
    );
    return { entity, created: false, previous, quota: quota[0] };
  }

  private async chargedInsert(
    m: EntityManager,
    w: SubnameWrite,
    by: Actor,
    onConflict: 'skip' | 'lock',
  ): Promise<SubnameWritten | null> {
    const params = new SqlParams();
    const sql = chargedInsertQuery(params, w, by, onConflict);
    const rows: (SubnameRow & { quota_limit: number; quota_used: number })[] = await m.query(sql, params.values);
    const row = rows[0];
    if (!row) return null;
    const quota = { limit: row.quota_limit, used: row.quota_used };
    return { entity: rowToEntity(row), created: true, previous: null, quota };
  }

  /**
   * Create-or-update of many subnames with distinct full names (see buildUpsertManyQuery), in rounds: a name
   * whose row changed since the first statement's snapshot is written by a second one, with its exact
   * "before". Results in the order of `writes`.
   */
  async upsertMany(
    manager: EntityManager,
    writes: SubnameWrite[],
  ): Promise<{ entity: SubnameEntity; inserted: boolean; previous: SubnameEntity | null }[]> {
    const byName = new Map<string, SubnameRow & Record<string, unknown>>();
    let pending = writes;
    for (let round = 0; round < 2 && pending.length > 0; round++) {
      const { sql, params } = buildUpsertManyQuery(pending);
      const rows: (SubnameRow & Record<string, unknown>)[] = await manager.query(sql, params);
      for (const row of rows) byName.set(row.full_name, row);
      pending = pending.filter((w) => !byName.has(w.fullName));
    }
    // Unreachable: the first round locked every row it did not write, and the second round writes them.
    if (pending.length > 0) throw new Error(`batch upsert left ${pending[0].fullName} unwritten`);
    return writes.map((w) => {
      const row = byName.get(w.fullName)!;
      return {
        entity: rowToEntity(row),
        inserted: row.inserted === true,
        previous: row.had_old === true ? previousOf(row) : null,
      };
    });
  }

  /**
   * One page of the subnames under `parentName` at any depth (full names ending in `.parentName`), in the
   * order of their reversed full names, after the cursor `after` (a reversed full name). The order is a
   * prefix range of IDX_subnames_full_name_reversed, so each page is one index range scan, however large the
   * table, and names under one parent come together.
   */
  async exportPage(
    manager: EntityManager,
    parentName: string,
    after: string | null,
    limit: number,
  ): Promise<{ items: SubnameEntity[]; cursor: string | null }> {
    // Reversed, every name under oak.eth starts with 'hte.kao.'; in byte order they all sort before 'hte.kao/'.
    const rows: (SubnameRow & { export_key: string })[] = await manager.query(
      `SELECT s.*, reverse(s.full_name) AS export_key
         FROM subnames s
        WHERE reverse(s.full_name) COLLATE "C" > coalesce($2::text, reverse('.' || $1::text))
          AND reverse(s.full_name) COLLATE "C" < (reverse($1::text) || '/')
        ORDER BY reverse(s.full_name) COLLATE "C"
        LIMIT $3`,
      [parentName, after, limit],
    );
    return { items: rows.map(rowToEntity), cursor: rows.length > 0 ? rows[rows.length - 1].export_key : null };
  }

  /** A holder's patch (see patchQuery): the row and its values before, or null when `holder` owns no such row. */
  async patch(
    manager: EntityManager,
    fullName: string,
    holder: string,
    p: RecordPatch,
  ): Promise<{ entity: SubnameEntity; previous: SubnameEntity } | null> {
    const { sql, params } = patchQuery(fullName, holder, p);
    // An UPDATE answers [rows, rowCount] through TypeORM's postgres driver.
    const [rows]: [(SubnameRow & Record<string, unknown>)[], number] = await manager.query(sql, params);
    return rows[0] ? { entity: rowToEntity(rows[0]), previous: previousOf(rows[0]) } : null;
  }

  /** One page of the names an address (lower case) holds, in creation order, and how many it holds in all. */
  async ownedPage(
    manager: EntityManager,
    owner: string,
    window: PageWindow,
  ): Promise<{ items: SubnameEntity[]; totalItems: number }> {
    const rows: (SubnameRow & { total_items: number })[] = await manager.query(
      `SELECT s.*, count(*) OVER ()::int AS total_items FROM subnames s WHERE lower(s.owner) = $1
        ORDER BY s.created_at, s.id LIMIT $2 OFFSET $3`,
      [owner, window.limit, window.offset],
    );
    const totalItems =
      rows[0]?.total_items ??
      (
        (await manager.query('SELECT count(*)::int AS n FROM subnames WHERE lower(owner) = $1', [owner])) as {
          n: number;
        }[]
      )[0].n;
    return { items: rows.map(rowToEntity), totalItems };
  }

  async count(manager: EntityManager): Promise<number> {
    const rows: { n: number }[] = await manager.query('SELECT count(*)::int AS n FROM subnames');
    return rows[0].n;
  }

  /** Up to `limit` full names after `after`, in order: a keyset page, one range of UQ_subnames_full_name. */
  async fullNamesAfter(manager: EntityManager, after: string, limit: number): Promise<string[]> {
    const rows: { full_name: string }[] = await manager.query(
      'SELECT full_name FROM subnames WHERE full_name > $1 ORDER BY full_name LIMIT $2',
      [after, limit],
    );
    return rows.map((r) => r.full_name);
  }

  async findByFullName(manager: EntityManager, fullName: string): Promise<SubnameEntity | null> {
    const rows: SubnameRow[] = await manager.query('SELECT * FROM subnames WHERE full_name = $1', [fullName]);
    return rows[0] ? rowToEntity(rows[0]) : null;
  }

  /**
   * One page of the subnames that match, in creation order (then id), and how many match in all. Run it in a
   * transaction of its own: the statement runs under `statement_timeout` (SET LOCAL, that transaction only), so
   * a public search never costs more database time than that; past it PostgreSQL cancels it (SQLSTATE 57014).
   */
  async searchPage(
    manager: EntityManager,
    filter: SubnameFilter,
    window: PageWindow,
    timeoutMs: number,
  ): Promise<{ items: SubnameEntity[]; totalItems: number }> {
    const { sql, params } = buildSearchQuery(filter, window);
    await manager.query(`SET LOCAL statement_timeout = ${Math.trunc(timeoutMs)}`);
    const rows: (Partial<SubnameRow> & { total_items: string })[] = await manager.query(sql, params);
    return {
      totalItems: Number(rows[0]?.total_items ?? 0),
      items: rows.filter((r) => r.id !== null && r.id !== undefined).map((r) => rowToEntity(r as SubnameRow)),
    };
  }

  /** The deleted row, or null when there was none (or, given `owner`, none that this address owns). */
  async deleteByFullName(manager: EntityManager, fullName: string, owner?: string): Promise<SubnameEntity | null> {
    // For DELETE … RETURNING the postgres driver answers [rows, affectedCount].
    const [rows]: [SubnameRow[], number] =
      owner === undefined
        ? await manager.query('DELETE FROM subnames WHERE full_name = $1 RETURNING *', [fullName])
        : await manager.query('DELETE FROM subnames WHERE full_name = $1 AND lower(owner) = $2 RETURNING *', [
            fullName,
            owner.toLowerCase(),
          ]);
    return rows[0] ? rowToEntity(rows[0]) : null;
  }
}
