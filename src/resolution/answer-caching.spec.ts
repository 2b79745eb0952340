import { alignedExpires, answerEtag, etagMatches, expiryWindowSeconds, sharedMaxAge } from './answer-caching';

describe('answer caching', () => {
  it('aligns expires to windows of a fifth of the lifetime, within (4/5, 1] of it from now', () => {
    expect(expiryWindowSeconds(300)).toBe(60);
    expect(expiryWindowSeconds(3)).toBe(1);
    // 1,000,020 starts a window of 60 s (16,667 × 60).
    expect(alignedExpires(1_000_020, 300)).toBe(1_000_320);
    expect(alignedExpires(1_000_079, 300)).toBe(1_000_320);
    expect(alignedExpires(1_000_080, 300)).toBe(1_000_380);
    expect(alignedExpires(1_000_019, 300)).toBe(1_000_260);
    for (let now = 1_000_000; now < 1_000_200; now++) {
      const remaining = alignedExpires(now, 300) - now;
      expect(remaining).toBeGreaterThan(240);
      expect(remaining).toBeLessThanOrEqual(300);
    }
  });

  it('gives equal inputs one strong ETag and any difference another', () => {
    const req = new Uint8Array([1, 2, 3]);
    const res = new Uint8Array([4]);
    const tag = answerEtag('0xS', '0xAbC', 100, req, res);
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(answerEtag('0xS', '0xabc', 100, req, res)).toBe(tag);
    expect(answerEtag('0xS', '0xabc', 160, req, res)).not.toBe(tag);
    expect(answerEtag('0xT', '0xabc', 100, req, res)).not.toBe(tag);
    expect(answerEtag('0xS', '0xabc', 100, req, new Uint8Array([5]))).not.toBe(tag);
  });

  it('matches If-None-Match lists, weak forms and *', () => {
    expect(etagMatches('"a"', '"a"')).toBe(true);
    expect(etagMatches('"b", W/"a"', '"a"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
    expect(etagMatches(undefined, '"a"')).toBe(false);
  });

  it('keeps s-maxage within the remaining validity less 60 s', () => {
    expect(sharedMaxAge(0, 1300, 1000)).toBe(0);
    expect(sharedMaxAge(30, 1300, 1000)).toBe(30);
    expect(sharedMaxAge(600, 1300, 1000)).toBe(240);
    expect(sharedMaxAge(600, 1050, 1000)).toBe(0);
  });
});
