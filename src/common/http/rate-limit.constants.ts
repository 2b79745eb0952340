/** The two budgets: per API key on keyed routes, per client address for everything else (and before a key). */
export const KEY_LIMIT = 'key';
export const IP_LIMIT = 'ip';
/** Metadata of routes that are never limited (NoRateLimit). */
export const NO_RATE_LIMIT = 'rate-limit:skip';
