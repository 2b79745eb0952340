import { arrayElementLines, describeLocation } from './import-source';

describe(arrayElementLines.name, () => {
  it('finds the line on which each top-level element starts', () => {
    const text = JSON.stringify([{ a: 1, b: [1, 2] }, { c: '{[' }, 'x', [3]], null, 2);
    const lines = text.split('\n');
    const expected = lines.flatMap((l, i) => (/^ {2}\S/.test(l) && !/^ {2}[\]}]/.test(l) ? [i + 1] : []));
    expect(arrayElementLines(text)).toEqual(expected);
    expect(expected).toHaveLength(4);
  });

  it('one line, strings with brackets, commas and escaped quotes', () => {
    expect(arrayElementLines('[{"a":"],[\\"{"},{"b":1}, 3 ]')).toEqual([1, 1, 1]);
    expect(arrayElementLines('[\n]')).toEqual([]);
    expect(arrayElementLines('[\n{"a":\n1},\n\n{"b":2}]')).toEqual([2, 5]);
  });
});

describe(describeLocation.name, () => {
  it('NDJSON by line; a JSON array by item and line', () => {
    expect(describeLocation({ line: 12 })).toBe('line 12');
    expect(describeLocation({ line: 3, item: 2 })).toBe('item 2 (line 3)');
  });
});
