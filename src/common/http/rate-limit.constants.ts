/** The two budgets: per API key on keyed routes, per client address for everything else (and before a key). */
export const KEY_LIMIT = 'key';
export const IP_LIMIT = 'ip';
/** Metadata of routes that are never limited (NoRateLimit). */
export const NO_RATE_LIMIT = 'rate-limit:skip';
/** The gateway's budget per client address (RATE_LIMIT_RESOLUTION_PER_IP), apart from the others. */
export const RESOLUTION_LIMIT = 'resolution';
/** Metadata of routes charged to the gateway's budget (ResolutionBudget). */
export const RESOLUTION_BUDGET = 'rate-limit:resolution';
/** The holder routes' budget per client address and per signer (RATE_LIMIT_PER_HOLDER), apart from the others. */
export const HOLDER_LIMIT = 'holder';
/** Metadata of routes charged to the holders' budget (HolderBudget). */
export const HOLDER_BUDGET = 'rate-limit:holder';
