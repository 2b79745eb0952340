import { changedFields } from './audit-diff';

describe(changedFields.name, () => {
  it('keeps only the fields whose value changed, with their old and new values', () => {
    expect(
      changedFields(
        { name: 'a', quota: 5, parentNames: ['oak.eth'], expiresAt: null },
        { name: 'b', quota: 5, parentNames: ['oak.eth'], expiresAt: '2027-01-01T00:00:00.000Z' },
      ),
    ).toEqual({ before: { name: 'a', expiresAt: null }, after: { name: 'b', expiresAt: '2027-01-01T00:00:00.000Z' } });
  });

  it('compares maps by their entries, in any key order, and lists by order', () => {
    expect(changedFields({ texts: { a: '1', b: '2' } }, { texts: { b: '2', a: '1' } })).toEqual({
      before: {},
      after: {},
    });
    expect(changedFields({ labels: ['a', 'b'] }, { labels: ['b', 'a'] })).toEqual({
      before: { labels: ['a', 'b'] },
      after: { labels: ['b', 'a'] },
    });
  });

  it('treats a missing field as null', () => {
    expect(changedFields({}, { owner: null })).toEqual({ before: {}, after: {} });
    expect(changedFields({}, { owner: '0x1' })).toEqual({ before: { owner: null }, after: { owner: '0x1' } });
  });
});
