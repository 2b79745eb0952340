import { checksumAddress } from '../common/ens/evm-address';
/** Who made a change: the API key id, `admin` or `wallet:<address>`, and the request (or CLI run) that carried it. */
export interface Actor {
  actor: string;
  requestId: string;
}

export const ADMIN_ACTOR = 'admin';
/** The portal's own checks of who controls a key's parents (suspending and resuming keys). */
export const PORTAL_ACTOR = 'portal';

/** The audit actor of a wallet (signed in to the portal, or choosing its primary name): its EIP-55 address. */
export function walletActor(address: string): string {
  return `wallet:${checksumAddress(address)}`;
}

export const AUDIT_ACTIONS = [
  'key.issue',
  'key.update',
  'key.rotate',
  'key.revoke',
  'listing.put',
  'listing.delete',
  'subname.create',
  'subname.update',
  'subname.delete',
  'primary-name.set',
  'primary-name.clear',
  'key.suspend',
  'key.resume',
  'portal.sign-in',
  'portal.sign-out',
  'portal.name-add',
  'policy.put',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Field values as JSON: dates as ISO strings, maps as objects. */
export type AuditFields = Record<string, unknown>;

/** A change to record: created (before null), deleted (after null), or changed (only the changed fields). */
export interface AuditEvent {
  by: Actor;
  action: AuditAction;
  subject: string;
  before: AuditFields | null;
  after: AuditFields | null;
}
