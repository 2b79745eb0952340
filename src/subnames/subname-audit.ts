import { changedFields } from '../audit/audit-diff';
import type { Actor, AuditEvent, AuditFields } from '../audit/audit.types';
import type { SubnameEntity } from './subname.entity';

/** What the audit trail records of a subname: its records (the name itself is the event's subject). */
export function auditedSubname(e: SubnameEntity): AuditFields {
  return {
    texts: e.texts,
    addresses: e.addresses,
    metadata: e.metadata,
    contenthash: e.contenthash,
    owner: e.owner,
    ttl: e.ttl,
  };
}

/**
 * The event of an upsert: a creation with every record, or an update with the records it changed (with every
 * record, before null, if the row as it was were unknown).
 */
export function subnameWriteEvent(
  by: Actor,
  entity: SubnameEntity,
  previous: SubnameEntity | null,
  inserted = previous === null,
): AuditEvent {
  const subject = entity.fullName;
  if (inserted) return { by, action: 'subname.create', subject, before: null, after: auditedSubname(entity) };
  if (!previous) return { by, action: 'subname.update', subject, before: null, after: auditedSubname(entity) };
  return { by, action: 'subname.update', subject, ...changedFields(auditedSubname(previous), auditedSubname(entity)) };
}
