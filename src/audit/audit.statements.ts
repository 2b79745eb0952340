import { SqlParams, sqlIdentifier } from '../common/persistence/sql-params';
import type { Actor, AuditAction, AuditEvent, AuditFields } from './audit.types';

const COLUMNS = 'INSERT INTO audit_events (actor, request_id, action, subject, before, after)';
const json = (v: unknown) => (v === null ? null : JSON.stringify(v));

/** The INSERT of events in the order given (a batch's items, or one), every value bound: an array per column. */
export function auditInsertStatement(params: SqlParams, events: AuditEvent[]): string {
  const text = (f: (e: AuditEvent) => string) => `${params.add(events.map(f))}::text[]`;
  const jsonb = (f: (e: AuditEvent) => AuditFields | null) => `${params.add(events.map((e) => json(f(e))))}::jsonb[]`;
  return `${COLUMNS}
          SELECT actor, request_id, action, subject, before, after
            FROM unnest(${text((e) => e.by.actor)}, ${text((e) => e.by.requestId)}, ${text((e) => e.action)},
                        ${text((e) => e.subject)}, ${jsonb((e) => e.before)}, ${jsonb((e) => e.after)})
                 WITH ORDINALITY AS e(actor, request_id, action, subject, before, after, n)
           ORDER BY n`;
}

/**
 * The INSERT of a creation event for each row of `rows`, a relation of the caller's statement (the rows its
 * INSERT returned): the subject is the row's `subject` column, "after" its `after` columns keyed by their
 * names, "before" null. So a statement that creates records exactly what it created, and nothing when it
 * created nothing.
 */
export function auditCreatedRowsStatement(
  params: SqlParams,
  e: { rows: string; by: Actor; action: AuditAction; subject: string; after: readonly string[] },
): string {
  const rows = sqlIdentifier(e.rows);
  const after = e.after.map((c) => `'${sqlIdentifier(c)}', ${rows}.${c}`).join(', ');
  const values = [e.by.actor, e.by.requestId, e.action].map((v) => `${params.add(v)}::text`);
  return `${COLUMNS}
          SELECT ${values.join(', ')}, ${rows}.${sqlIdentifier(e.subject)}, NULL, jsonb_build_object(${after}) FROM ${rows}`;
}
