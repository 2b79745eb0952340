import { NO_EXPIRY } from '../signing/mint-context';
import { fitsUint256, nameExpiry, PriceList, quote, SECONDS_PER_YEAR, UINT256_LIMIT } from './pricing';

const listing = (over: Partial<PriceList> = {}): PriceList => ({
  price: '5000',
  lengthPrices: {},
  fee: '100',
  expirable: false,
  ...over,
});

describe('pricing', () => {
  describe(quote.name, () => {
    it('uses the base price and fee once for a non-expirable listing, whatever the years', () => {
      expect(quote(listing(), 'alice', 1)).toEqual({ price: 5000n, fee: 100n });
      expect(quote(listing(), 'alice', 100)).toEqual({ price: 5000n, fee: 100n });
    });

    it('multiplies price and fee by the years when expirable, up to 100 years', () => {
      expect(quote(listing({ expirable: true }), 'alice', 1)).toEqual({ price: 5000n, fee: 100n });
      expect(quote(listing({ expirable: true }), 'alice', 100)).toEqual({ price: 500000n, fee: 10000n });
    });

    it('takes the exact per-length price, else the base price', () => {
      const l = listing({ expirable: true, lengthPrices: { '1': '900000', '3': '70000' } });
      expect(quote(l, 'a', 1).price).toBe(900000n);
      expect(quote(l, 'a', 2).price).toBe(1800000n);
      expect(quote(l, 'abc', 1).price).toBe(70000n);
      expect(quote(l, 'ab', 1).price).toBe(5000n);
      expect(quote(l, 'abcd', 1).price).toBe(5000n);
      // one code point: the one-character price applies to an emoji and to an accented letter
      expect(quote(l, '🙂', 1).price).toBe(900000n);
      expect(quote(l, 'é', 1).price).toBe(900000n);
    });

    it('ignores inherited keys of the per-length map', () => {
      expect(quote(listing({ lengthPrices: {} }), 'constructor', 1).price).toBe(5000n);
    });

    it('allows a zero price and a zero fee', () => {
      expect(quote(listing({ price: '0', fee: '0', expirable: true }), 'free', 100)).toEqual({ price: 0n, fee: 0n });
      expect(quote(listing({ lengthPrices: { '1': '0' } }), 'x', 1).price).toBe(0n);
    });

    it('keeps full precision for amounts beyond 2^53', () => {
      const big = (2n ** 255n).toString();
      expect(quote(listing({ price: big, expirable: true }), 'alice', 1).price).toBe(2n ** 255n);
    });
  });

  describe(fitsUint256.name, () => {
    it('accepts a sum up to 2^256 - 1 and refuses more', () => {
      expect(fitsUint256({ price: UINT256_LIMIT - 2n, fee: 1n })).toBe(true);
      expect(fitsUint256({ price: UINT256_LIMIT - 1n, fee: 1n })).toBe(false);
      expect(fitsUint256({ price: 2n ** 255n * 2n, fee: 0n })).toBe(false);
    });
  });

  describe(nameExpiry.name, () => {
    const now = 1_795_000_000;
    it('is years of 365 days from now when expirable', () => {
      expect(nameExpiry(true, 1, now)).toBe(now + 31_536_000);
      expect(nameExpiry(true, 100, now)).toBe(now + 100 * SECONDS_PER_YEAR);
      expect(nameExpiry(true, 100, now)).toBe(4_948_600_000);
    });

    it('is the uint32 maximum when the listing is not expirable', () => {
      expect(nameExpiry(false, 1, now)).toBe(NO_EXPIRY);
      expect(nameExpiry(false, 100, now)).toBe(4294967295);
    });
  });
});
