/** Replaying a subname's audit trail from an empty table, to prove each event's `before` is what was stored. */
import type { DataSource } from 'typeorm';

export type Fields = Record<string, unknown>;

export interface AuditItem {
  id: string;
  action: string;
  subject: string;
  before: Fields | null;
  after: Fields | null;
}

/** JSON with sorted keys: equal values compare equal whatever their key order (or realm: fetch's objects). */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Fields).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}

export const same = (a: unknown, b: unknown) => canonical(a ?? null) === canonical(b ?? null);

/** Replays the trail from an empty table; every `before` must be what the replay holds at that point. */
export function replay(events: AuditItem[]): { state: Fields | null; misstated: string[] } {
  let state: Fields | null = null;
  const misstated: string[] = [];
  for (const e of events) {
    if (e.action === 'subname.create') {
      if (state !== null || e.before !== null) misstated.push(`${e.id} create over an existing row`);
      state = { ...e.after };
    } else if (e.action === 'subname.update') {
      if (state === null || e.before === null) {
        misstated.push(`${e.id} update ${state === null ? 'of no row' : 'without before'}`);
        state = { ...(state ?? {}), ...e.after };
        continue;
      }
      for (const [field, value] of Object.entries(e.before)) {
        if (!same(state[field], value))
          misstated.push(`${e.id} ${field}: before ${JSON.stringify(value)}, held ${JSON.stringify(state[field])}`);
      }
      state = { ...state, ...e.after };
    } else if (e.action === 'subname.delete') {
      if (!same(state, e.before))
        misstated.push(`${e.id} delete: before ${JSON.stringify(e.before)}, held ${JSON.stringify(state)}`);
      state = null;
    }
  }
  return { state, misstated };
}

/** The row's audited fields as the table holds them, or null when there is none. */
export async function storedAuditFields(dataSource: DataSource, fullName: string): Promise<Fields | null> {
  const rows: Fields[] = await dataSource.query(
    'SELECT texts, addresses, metadata, contenthash, owner, ttl::int AS ttl FROM subnames WHERE full_name = $1',
    [fullName],
  );
  return rows[0] ?? null;
}

/** Every event about `subject`, oldest first, straight from the table. */
export function auditTrail(dataSource: DataSource, subject: string): Promise<AuditItem[]> {
  return dataSource.query(
    'SELECT id::text AS id, action, subject, before, after FROM audit_events WHERE subject = $1 ORDER BY id',
    [subject],
  );
}
