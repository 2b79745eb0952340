import { plainToInstance } from 'class-transformer';
import { NestedType, nestedTypeOf } from './nested-type';

class Entry {
  key: string;
}
class Box {
  @NestedType(() => Entry) entries: Entry[];
  @NestedType(() => Entry) entry: Entry;
  name: string;
}
class BigBox extends Box {}

describe(NestedType.name, () => {
  it('has class-transformer build the nested values as its class', () => {
    const box = plainToInstance(Box, { entries: [{ key: 'a' }, { key: 'b' }], entry: { key: 'c' }, name: 'n' });
    expect(box.entries.map((e) => e instanceof Entry)).toEqual([true, true]);
    expect(box.entries.map((e) => e.key)).toEqual(['a', 'b']);
    expect(box.entry).toBeInstanceOf(Entry);
  });

  it('records the class for nestedTypeOf, on the class and the classes that extend it', () => {
    expect(nestedTypeOf(Box, 'entries')).toBe(Entry);
    expect(nestedTypeOf(Box, 'entry')).toBe(Entry);
    expect(nestedTypeOf(BigBox, 'entries')).toBe(Entry);
    expect(nestedTypeOf(Box, 'name')).toBeUndefined();
    expect(nestedTypeOf(Entry, 'key')).toBeUndefined();
  });
});
