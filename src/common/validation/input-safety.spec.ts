import fc from 'fast-check';
import { ValidationFailedError } from '../errors';
import {
  assertSafeInput,
  depthProblem,
  firstInputProblem,
  inputProblem,
  inputSafetyMiddleware,
  isSafeInput,
  MAX_INPUT_DEPTH,
  parseJsonParameter,
  requestValueProblem,
  textProblem,
} from './input-safety';
import { runs } from '../../../test/support/property-runs';

/** `{"a":{"a":…1…}}` nested `depth` levels, built as text (no recursion anywhere). */
const nested = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) as unknown;

describe(textProblem.name, () => {
  it.each(['a\u0000b', '\ud800', 'x\udfffy', '\udc00\ud800'])('refuses %j', (text) => {
    expect(textProblem(text)).toBe('must not contain NUL characters or unpaired UTF-16 surrogates');
  });

  it.each(['', 'alice', '🦊', 'ελληνικα', '\ud83e\udd8a'])('accepts %j', (text) => {
    expect(textProblem(text)).toBeNull();
  });
});

describe(depthProblem.name, () => {
  it(`allows ${MAX_INPUT_DEPTH} levels and refuses one more`, () => {
    expect(depthProblem(MAX_INPUT_DEPTH)).toBeNull();
    expect(depthProblem(MAX_INPUT_DEPTH + 1)).toContain(`deeper than ${MAX_INPUT_DEPTH}`);
  });
});

describe(inputProblem.name, () => {
  it.each([
    [{ a: 'x\u0000y' }, 'a'],
    [{ a: [{ b: '\ud800' }] }, 'a[0].b'],
    [{ ['k\u0000']: 'v' }, 'k\u0000'],
    [JSON.parse('{"__proto__": {"x": 1}}'), '__proto__'],
    [{ nested: { constructor: 1 } }, 'nested.constructor'],
    [{ first: 'x\u0000', second: '\ud800' }, 'first'],
  ])('finds %j at %s', (value, field) => {
    expect(inputProblem(value)?.field).toBe(field);
  });

  it('prefixes the given path', () => {
    expect(inputProblem({ tier: '\ud800' }, 'metadata')).toEqual({
      field: 'metadata.tier',
      message: 'must not contain NUL characters or unpaired UTF-16 surrogates',
    });
  });

  it('passes ordinary values, emoji included', () => {
    expect(inputProblem({ a: ['🦊', 'ελληνικα', 1, null, { b: true }] })).toBeNull();
  });

  it('walks 100,000 levels without recursion, naming the level past the limit', () => {
    const problem = inputProblem(nested(100_000));
    expect(problem).toEqual({
      field: Array(MAX_INPUT_DEPTH).fill('a').join('.'),
      message: `is nested deeper than ${MAX_INPUT_DEPTH} levels`,
    });
    expect(inputProblem(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))?.field).toBe(
      '[0]'.repeat(MAX_INPUT_DEPTH),
    );
    expect(inputProblem(nested(MAX_INPUT_DEPTH))).toBeNull();
  });
});

describe(isSafeInput.name, () => {
  // Strings and keys drawn mostly from ordinary text, sometimes from the unsafe kinds, nested up to past the limit.
  const text = fc.oneof(
    { weight: 8, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('\u0000', 'a\u0000', '\ud800', 'x\udfff', '__proto__', 'constructor', 'prototype'),
    },
  );
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(text, tie('value'), { maxKeys: 4 }),
    ),
  }));

  it('agrees with the full walk on generated values', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(isSafeInput(v)).toBe(firstInputProblem(v) === null);
      }),
      { numRuns: runs(3000), seed: 7 },
    );
  });

  it('agrees at the depth limit and past it, and on prototype keys JSON.parse keeps', () => {
    for (const depth of [MAX_INPUT_DEPTH - 1, MAX_INPUT_DEPTH, MAX_INPUT_DEPTH + 1, 100_000]) {
      expect(isSafeInput(nested(depth))).toBe(depth <= MAX_INPUT_DEPTH);
      expect(isSafeInput([nested(depth)])).toBe(firstInputProblem([nested(depth)]) === null);
    }
    expect(isSafeInput(JSON.parse('{"a":[{"__proto__":1}]}'))).toBe(false);
    expect(isSafeInput({ a: ['ok', { b: 'x\u0000' }] })).toBe(false);
    expect(isSafeInput({ a: ['ok', { b: '🦊' }] })).toBe(true);
  });
});

describe(assertSafeInput.name, () => {
  it('throws a validation failure naming the field', () => {
    expect(() => assertSafeInput({ a: '\u0000' }, 'q')).toThrow(ValidationFailedError);
    expect(() => assertSafeInput({ a: 'fine' }, 'q')).not.toThrow();
  });
});

describe(parseJsonParameter.name, () => {
  it('parses JSON and checks what it holds; leaves non-JSON to the field validator', () => {
    expect(parseJsonParameter('{"tier":"gold"}', 'metadata')).toEqual({ tier: 'gold' });
    expect(parseJsonParameter('not json', 'metadata')).toBeUndefined();
    expect(() => parseJsonParameter('{"tier":"a\\u0000b"}', 'metadata')).toThrow(ValidationFailedError);
  });

  it('takes prototype names as the keys of a metadata map, and only there', () => {
    expect(Object.keys(parseJsonParameter('{"__proto__":"x","constructor":"y"}', 'metadata') as object)).toEqual([
      '__proto__',
      'constructor',
    ]);
    expect(() => parseJsonParameter('{"__proto__":"x"}', 'other')).toThrow(ValidationFailedError);
    expect(() => parseJsonParameter('{"a":{"__proto__":"x"}}', 'metadata')).toThrow(ValidationFailedError);
  });
});

describe(requestValueProblem.name, () => {
  const parsed = (text: string) => JSON.parse(text) as unknown;

  it('lets prototype names be keys of a top-level metadata map, and nowhere else', () => {
    expect(requestValueProblem(parsed('{"metadata":{"__proto__":"a","constructor":"b","prototype":"c"}}'))).toBeNull();
    expect(requestValueProblem(parsed('{"metadata":{"tier":"a"},"__proto__":{}}'))).toMatchObject({
      field: '__proto__',
    });
    expect(requestValueProblem(parsed('{"items":[{"metadata":{"constructor":"b"}}]}'))).toMatchObject({
      field: 'items[0].metadata.constructor',
    });
    expect(requestValueProblem(parsed('{"metadata":{"a":{"__proto__":1}}}'))).toMatchObject({
      field: 'metadata.a.__proto__',
    });
  });

  it('still holds the map keys and values to the text and depth rules', () => {
    expect(requestValueProblem({ metadata: { 'a\u0000': 'x' } })).toMatchObject({ field: 'metadata.a\u0000' });
    expect(requestValueProblem({ metadata: { a: '\ud800' } })).toMatchObject({ field: 'metadata.a' });
    expect(requestValueProblem({ metadata: { a: nested(MAX_INPUT_DEPTH + 1) } })?.message).toMatch(/deeper/);
  });

  it('agrees with inputProblem on every value without a metadata map', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const withoutMap =
          typeof value !== 'object' || value === null || Array.isArray(value) || !('metadata' in value);
        fc.pre(withoutMap);
        expect(requestValueProblem(value)).toEqual(inputProblem(value));
      }),
      { numRuns: runs(200) },
    );
  });
});

describe(inputSafetyMiddleware.name, () => {
  const run = (req: { body?: unknown; query: unknown; headers: unknown }) => {
    let passed: unknown = 'not called';
    inputSafetyMiddleware(req, {}, (err?: unknown) => (passed = err));
    return passed;
  };

  it('passes a clean request on', () => {
    expect(run({ body: { a: 'b' }, query: { page: '1' }, headers: { host: 'x' } })).toBeUndefined();
  });

  it.each([
    [{ body: nested(5000), query: {}, headers: {} }, 'a'],
    [{ query: { labelSearch: 'a\u0000' }, headers: {} }, 'labelSearch'],
    [{ query: { ['x\ud800']: '1' }, headers: {} }, 'x\ud800'],
    [{ query: {}, headers: { 'x-request-id': 'a\u0000' } }, 'headers.x-request-id'],
  ])('refuses %#, naming %s', (req, field) => {
    const err = run(req);
    expect(err).toBeInstanceOf(ValidationFailedError);
    expect((err as ValidationFailedError).errors![0].field.startsWith(field)).toBe(true);
  });
});
