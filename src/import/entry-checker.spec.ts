import { EntryChecker } from './entry-checker';
import { ImportRecord } from './import-source';

const entry = (line: number, body: Record<string, unknown>): ImportRecord => ({ line, body });

describe(EntryChecker.name, () => {
  it('passes a valid entry and refuses a fullName seen before, naming where', async () => {
    const sut = new EntryChecker();
    expect(await sut.check(entry(1, { parentName: 'oak.eth', label: 'Alice' }))).toEqual({ problem: null });
    expect(await sut.check(entry(2, { parentName: 'OAK.eth', label: 'alice' }))).toEqual({
      problem: 'repeats the fullName alice.oak.eth of line 1',
    });
  });

  it('refuses a parentName outside the length bounds, as the service does', async () => {
    const sut = new EntryChecker();
    expect(await sut.check(entry(1, { parentName: 'ab\u00ad.eth', label: 'x' }))).toEqual({
      problem: 'parentName: must be longer than or equal to 7 characters after ENSIP-15 normalisation',
    });
    const long = `${['\u3371'.repeat(40), '\u3371'.repeat(40), '\u3371'.repeat(40)].join('.')}.oak.eth`;
    expect(await sut.check(entry(2, { parentName: long, label: 'x' }))).toEqual({
      problem: 'parentName: must be shorter than or equal to 255 characters after ENSIP-15 normalisation',
    });
  });

  it('refuses an entry with several problems, naming each', async () => {
    const sut = new EntryChecker();
    expect(await sut.check(entry(1, { parentName: 'ab.eth', label: 'x', ttl: -1 }))).toEqual({
      problem: 'parentName: must be longer than or equal to 7 characters; ttl: must not be less than 0',
    });
    expect((await sut.check(entry(2, { parentName: 'a_b.eth', label: 'x' }))).problem).toMatch(/^parentName: /);
    expect((await sut.check(entry(3, { parentName: 'ab', label: 'x' }))).problem).toMatch(/^parentName: /);
    expect((await sut.check(entry(4, { parentName: 'ab.eth', label: 'a.b' }))).problem).toMatch(/label: /);
  });

  it("passes an export's policy line naming its parent, and refuses one without a parent or repeated", async () => {
    const sut = new EntryChecker();
    const policy = (line: number, p: Record<string, unknown>): ImportRecord => ({ line, policy: p });
    expect(await sut.check(policy(1, { parentName: 'oak.eth', claims: 'open' }))).toEqual({ problem: null });
    expect(await sut.check(policy(2, { claims: 'open' }))).toEqual({ problem: 'policy.parentName: must be a name' });
    expect(await sut.check(policy(3, { parentName: 'OAK.eth' }))).toEqual({
      problem: 'repeats the policy of OAK.eth of line 1',
    });
    expect(await sut.check(entry(4, { parentName: 'oak.eth', label: 'alice' }))).toEqual({ problem: null });
  });
});
