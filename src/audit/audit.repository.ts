import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlParams } from '../common/persistence/sql-params';
import { AuditEventEntity } from './audit-event.entity';
import { auditInsertStatement } from './audit.statements';
import type { AuditEvent } from './audit.types';

export interface AuditFilter {
  since?: Date;
  actor?: string;
  subject?: string;
}

interface AuditRow {
  id: string;
  at: Date;
  actor: string;
  request_id: string;
  action: string;
  subject: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

function rowToEntity(r: AuditRow): AuditEventEntity {
  return Object.assign(new AuditEventEntity(), {
    id: String(r.id),
    at: r.at,
    actor: r.actor,
    requestId: r.request_id,
    action: r.action,
    subject: r.subject,
    before: r.before,
    after: r.after,
  });
}

/** The audit_events table: inserts only, and the admin read; every method runs on the manager it is given. */
@Injectable()
export class AuditRepository {
  async insert(manager: EntityManager, e: AuditEvent): Promise<void> {
    await this.insertMany(manager, [e]);
  }

  /** Several events in one statement, in the order given (a batch's items). */
  async insertMany(manager: EntityManager, events: AuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    const params = new SqlParams();
    await manager.query(auditInsertStatement(params, events), params.values);
  }

  /** Newest first (time, then id); the page and its total from one snapshot in one statement. */
  async page(
    manager: EntityManager,
    f: AuditFilter,
    window: { limit: number; offset: number },
  ): Promise<{ items: AuditEventEntity[]; totalItems: number }> {
    const params: unknown[] = [];
    const where: string[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (f.since !== undefined) where.push(`at >= ${param(f.since)}`);
    if (f.actor !== undefined) where.push(`actor = ${param(f.actor)}`);
    if (f.subject !== undefined) where.push(`subject = ${param(f.subject)}`);
    const condition = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const rows: (Partial<AuditRow> & { total_items: string })[] = await manager.query(
      `WITH total AS (SELECT count(*) AS n FROM audit_events ${condition}),
            page AS (SELECT * FROM audit_events ${condition}
                      ORDER BY at DESC, id DESC LIMIT ${param(window.limit)} OFFSET ${param(window.offset)})
       SELECT total.n AS total_items, page.* FROM total LEFT JOIN page ON true
        ORDER BY page.at DESC, page.id DESC`,
      params,
    );
    return {
      totalItems: Number(rows[0]?.total_items ?? 0),
      items: rows.filter((r) => r.id !== null && r.id !== undefined).map((r) => rowToEntity(r as AuditRow)),
    };
  }
}
