import type { NextFunction, Request, Response } from 'express';
import { coinTypeOf } from '../common/ens/records';
import { transformReply } from '../common/http/json-reply.adapter';

/** Request header: `coin-type` keys `addresses` in responses by decimal coin type ("60") rather than name. */
export const ADDRESS_KEYS_HEADER = 'x-address-keys';

/** A subname response's addresses, keyed by coin type (a name address-encoder does not know stays as it is). */
function byCoinType(addresses: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(addresses)) out[String(coinTypeOf(name) ?? name)] = value;
  return out;
}

/** Rewrites the subnames in an answer (one, a page's items, a batch's results), a few levels deep at most. */
function rekey(value: unknown, depth = 0): unknown {
  if (depth > 3 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => rekey(v, depth + 1));
  const o = value as Record<string, unknown>;
  if (typeof o.fullName === 'string' && typeof o.addresses === 'object' && o.addresses !== null) {
    return { ...o, addresses: byCoinType(o.addresses as Record<string, string>) };
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k] = rekey(v, depth + 1);
  return out;
}

/**
 * The Namespace SDK re-posts a subname's `addresses` through parseInt: with `x-address-keys: coin-type` (its
 * setCustomHeaders) the keys it reads are coin types, so its record helpers work unmodified. A middleware, not an
 * interceptor: the subnames routes then keep Nest's direct handler call (bench/RESULTS.md).
 */
export function addressKeys(req: Request, res: Response, next: NextFunction): void {
  if (req.headers[ADDRESS_KEYS_HEADER] === 'coin-type') transformReply(res, rekey);
  next();
}
