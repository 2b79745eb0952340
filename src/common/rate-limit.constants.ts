/** The two budgets: per API key on keyed routes, per client address everywhere else. */
export const KEY_LIMIT = 'key';
export const IP_LIMIT = 'ip';
