import type { ThrottlerModuleOptions } from '@nestjs/throttler';
import { ApiKeysService } from '../auth/api-keys.service';
import { KeyedRequest } from '../auth/guards';
import { clientAddressOf } from '../common/http/client-address';
import { RateLimitStorage } from './rate-limit.storage';
import { ADDRESS_THROTTLER, KEY_THROTTLER, RouteBudgets } from './route-budgets';

/**
 * The two throttlers, in this order (equal ttls keep it through throttler's sort): the address's budget on every
 * limited route, so that a missing, unknown, revoked or expired key spends its sender's budget before any lookup
 * (and past it costs no hash and no query); then, on keyed routes, the key's. The key's tracker is the key
 * lookup: a valid key gives the address its unit back and is counted as `key:<id>` whatever replica and address
 * it comes from, so only real keys ever get a counter.
 */
export function rateLimitOptions(
  budgets: RouteBudgets,
  storage: RateLimitStorage,
  keys: ApiKeysService,
): ThrottlerModuleOptions {
  return {
    storage,
    throttlers: [
      {
        name: ADDRESS_THROTTLER,
        ttl: budgets.windowMs,
        limit: (context) => budgets.chargeOf(context, ADDRESS_THROTTLER).budget.limit,
      },
      {
        name: KEY_THROTTLER,
        ttl: budgets.windowMs,
        limit: budgets.byKey.budget.limit,
        skipIf: (context) => budgets.policyOf(context) !== 'keyed',
        getTracker: async (request) => {
          const req = request as KeyedRequest;
          const token = req.headers['x-auth-token'];
          // A 401 here leaves the address's unit spent (and its headers on the answer); ApiKeyGuard reuses the key.
          req.apiKey = await keys.authenticate(typeof token === 'string' ? token : undefined);
          await storage.refund(`${budgets.byAddress.prefix}:${clientAddressOf(req.ip)}`);
          return req.apiKey.id;
        },
      },
    ],
  };
}
