import { POOL_WAIT_TIMEOUT } from './pool-watch';

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);
// SQLSTATE 08xxx (connection), 57P01-04 (shutdown, cannot connect now), 57014 (statement timeout).
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-4]|57014)/;
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  // A wait for a pooled connection during which none came back (PoolWatch marks the other kind busy).
  POOL_WAIT_TIMEOUT,
  'Connection ended unexpectedly',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'Query read timeout',
  'connect ETIMEDOUT',
];

/** True for a wait for a pooled connection that timed out while the pool kept serving others (see PoolWatch). */
export function isDatabaseBusy(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const err = e as { databaseBusy?: unknown; driverError?: unknown; cause?: unknown };
  if (err.databaseBusy === true) return true;
  if (err.driverError && err.driverError !== e) return isDatabaseBusy(err.driverError);
  return Boolean(err.cause && err.cause !== e && isDatabaseBusy(err.cause));
}

/** True for errors that mean the database cannot be reached, as opposed to a bad query or a busy pool. */
export function isDatabaseUnavailable(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  if (isDatabaseBusy(e)) return false;
  const err = e as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof err.code === 'string' && (UNAVAILABLE_CODES.has(err.code) || UNAVAILABLE_SQLSTATE.test(err.code)))
    return true;
  if (typeof err.message === 'string' && UNAVAILABLE_MESSAGES.some((m) => (err.message as string).includes(m)))
    return true;
  if (err.driverError && err.driverError !== e) return isDatabaseUnavailable(err.driverError);
  if (err.cause && err.cause !== e) return isDatabaseUnavailable(err.cause);
  return false;
}

/** SQLSTATE 57014: a statement cancelled by statement_timeout (or a cancel request). */
export function isStatementTimeout(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const err = e as { code?: unknown; driverError?: unknown };
  if (err.code === '57014') return true;
  return err.driverError !== undefined && err.driverError !== e && isStatementTimeout(err.driverError);
}
