import { primaryNameProblem } from './dto/set-primary-name.dto';
import { MAX_CLOCK_AHEAD_SECONDS, MAX_SIGNATURE_AGE_SECONDS, refuseOutsideWindow } from './primary-names.service';

describe('primaryNameProblem', () => {
  it('takes "" and names already in their ENSIP-15 normalised form, as they were signed', () => {
    expect(primaryNameProblem('')).toBeNull();
    expect(primaryNameProblem('alice.oak.eth')).toBeNull();
    expect(primaryNameProblem('🙂.oak.eth')).toBeNull();
  });

  it('refuses a name that normalises to another (naming that form), one that cannot, and non-strings', () => {
    expect(primaryNameProblem('Alice.oak.eth')).toBe('must be ENSIP-15 normalised, as signed: alice.oak.eth');
    expect(primaryNameProblem('a..eth')).not.toBeNull();
    expect(primaryNameProblem('eth')).not.toBeNull();
    expect(primaryNameProblem(`${'a'.repeat(252)}.eth`)).toMatch(/255 characters/);
    expect(primaryNameProblem(null)).toBe('must be a string');
    expect(primaryNameProblem(7)).toBe('must be a string');
  });
});

describe('refuseOutsideWindow', () => {
  const now = 1_795_800_000;

  it('accepts issuedAt from 10 minutes old to 60 s ahead', () => {
    for (const issuedAt of [now - MAX_SIGNATURE_AGE_SECONDS, now, now + MAX_CLOCK_AHEAD_SECONDS]) {
      expect(() => refuseOutsideWindow(issuedAt, now)).not.toThrow();
    }
  });

  it('refuses older or further ahead with STALE_SIGNATURE', () => {
    for (const issuedAt of [now - MAX_SIGNATURE_AGE_SECONDS - 1, now + MAX_CLOCK_AHEAD_SECONDS + 1, 0]) {
      expect(() => refuseOutsideWindow(issuedAt, now)).toThrow(expect.objectContaining({ code: 'STALE_SIGNATURE' }));
    }
  });
});
