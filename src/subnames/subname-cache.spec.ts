import { entityChars } from './subname-cache';

describe('entityChars', () => {
  it('sizes entities by their records', () => {
    const base = { fullName: 'a.oak.eth', texts: {}, addresses: {}, metadata: {}, contenthash: null };
    const big = { ...base, metadata: { k: 'v'.repeat(2000) } };
    expect(entityChars(big as never) - entityChars(base as never)).toBe(2001);
    expect(entityChars(null)).toBeGreaterThan(0);
  });
});
