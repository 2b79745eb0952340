import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { map, Observable } from 'rxjs';
import { coinTypeOf } from '../common/ens/records';

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
 * setCustomHeaders) the keys it reads are coin types, so its record helpers work unmodified.
 */
@Injectable()
export class AddressKeysInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    if (req.headers[ADDRESS_KEYS_HEADER] !== 'coin-type') return next.handle();
    return next.handle().pipe(map((body) => rekey(body)));
  }
}
