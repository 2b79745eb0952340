import fc from 'fast-check';
import { topLevelArrayLength } from './json-array-length';

describe(topLevelArrayLength.name, () => {
  it.each([
    ['{"items":[]}', 0],
    ['{"items":[{}]}', 1],
    ['{ "items" : [ {"a":[1,2,3]}, "x,]", [], {"items":[1,2]} ] }', 4],
    ['{"a":"\\"items\\"","items":[1,2],"b":{"items":[1,2,3]}}', 2],
    ['{"items":[1],"items":[1,2,3]}', 3],
    ['{"items":{"a":1}}', undefined],
    ['{"items":[1,2],"items":{"a":[1]}}', undefined],
    ['{"items":[1,2],"items":"x"}', undefined],
    ['{"items":[1,2],"items":12}', undefined],
    ['{"other":[1,2]}', undefined],
    ['[{"items":[1,2]}]', undefined],
    ['{"\\u0069tems":[1,2]}', undefined],
  ])('%s → %j', (text, expected) => {
    expect(topLevelArrayLength(text, 'items')).toBe(expected);
  });

  it('agrees with JSON.parse over generated objects', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('items', 'a', 'item', 'itemss'), json),
        fc.option(fc.array(json)),
        (o, items) => {
          const value: Record<string, unknown> = { ...o, ...(items !== null ? { items } : {}) };
          const text = JSON.stringify(value, null, items !== null && items.length % 2 ? 1 : undefined);
          const parsed = (JSON.parse(text) as Record<string, unknown>).items;
          expect(topLevelArrayLength(text, 'items')).toBe(Array.isArray(parsed) ? parsed.length : undefined);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
