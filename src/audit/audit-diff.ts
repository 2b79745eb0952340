import type { AuditFields } from './audit.types';

/** JSON with object keys sorted, so that two maps with the same entries compare equal in any key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/**
 * The fields of `after` whose value differs from `before`, as a before/after pair of the same keys. Only the
 * keys of `after` are compared: a caller lists exactly the fields it audits.
 */
export function changedFields(before: AuditFields, after: AuditFields): { before: AuditFields; after: AuditFields } {
  const out = { before: {} as AuditFields, after: {} as AuditFields };
  for (const key of Object.keys(after)) {
    if (canonicalJson(before[key] ?? null) === canonicalJson(after[key] ?? null)) continue;
    out.before[key] = before[key] ?? null;
    out.after[key] = after[key] ?? null;
  }
  return out;
}
