import { ValidationPipe } from '@nestjs/common';
import { Allow, IsString } from 'class-validator';
import { FieldError, ValidationFailedError } from '../errors';
import { inputSafetyMiddleware, MAX_INPUT_DEPTH } from './input-safety';

class Body {
  @IsString() name: string;
  @Allow() extra?: unknown;
}

/** AppValidationPipe's options, its error factory aside. */
const PIPE_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
};

/** What Nest's own pipe makes of a body: the DTO it hands the handler, or what it throws. */
function nestPipe(body: unknown): Promise<Body> {
  return new ValidationPipe(PIPE_OPTIONS).transform(body, { type: 'body', metatype: Body }) as Promise<Body>;
}

/** The field errors our check answers a body with, none if it passes (it runs before any pipe, on every body). */
function ours(body: unknown): FieldError[] {
  let passed: unknown = 'not called';
  inputSafetyMiddleware({ body, query: {}, headers: {} }, {}, (err?: unknown) => (passed = err));
  if (passed === undefined) return [];
  expect(passed).toBeInstanceOf(ValidationFailedError);
  return (passed as ValidationFailedError).errors!;
}

/** `{"a":{"a":…1…}}` nested `depth` levels, built as text (no recursion anywhere). */
const nested = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) as unknown;

const parsed = (text: string) => JSON.parse(text) as unknown;

const NOT_TEXT = 'must not contain NUL characters or unpaired UTF-16 surrogates';
const NOT_A_FIELD = 'is not an accepted field';

describe("Nest's ValidationPipe beside input safety (the job no library does)", () => {
  describe('prototype keys', () => {
    it('Nest strips a __proto__ key silently, even with forbidNonWhitelisted; ours names it', async () => {
      const body = parsed('{"name": "alice", "__proto__": {"isAdmin": true}}');

      const dto = await nestPipe(body);

      expect(dto.name).toBe('alice');
      expect(Object.getPrototypeOf(dto)).toBe(Body.prototype);
      expect(Object.hasOwn(dto, '__proto__') || 'isAdmin' in dto).toBe(false);
      expect(ours(parsed('{"name": "alice", "__proto__": {"isAdmin": true}}'))).toEqual([
        { field: '__proto__', message: NOT_A_FIELD },
      ]);
    });

    it('Nest strips constructor and prototype keys silently, at any depth; ours names the first', async () => {
      const text = '{"name": "alice", "constructor": "c", "extra": {"list": [{"prototype": {"x": 1}}]}}';

      const dto = await nestPipe(parsed(text));

      expect(Object.keys(dto)).toEqual(['name', 'extra']);
      expect(dto.extra).toEqual({ list: [{}] });
      expect(ours(parsed(text))).toEqual([{ field: 'constructor', message: NOT_A_FIELD }]);
      expect(ours(parsed('{"name": "alice", "extra": {"list": [{"prototype": 1}]}}'))).toEqual([
        { field: 'extra.list[0].prototype', message: NOT_A_FIELD },
      ]);
    });
  });

  describe('text PostgreSQL cannot store or that is not Unicode', () => {
    it.each([
      ['a NUL', 'a\u0000b'],
      ['a lone high surrogate', 'x\ud800'],
      ['a lone low surrogate', '\udc00y'],
    ])('Nest passes %s through to the handler; ours names the field', async (_kind, text) => {
      const dto = await nestPipe({ name: text });

      expect(dto.name).toBe(text);
      expect(ours({ name: text })).toEqual([{ field: 'name', message: NOT_TEXT }]);
    });

    it('Nest passes NUL and lone surrogates in keys and nested values; ours names the place', async () => {
      const extra = { ['k\ud800']: 'v', list: ['ok', 'a\u0000'] };

      const dto = await nestPipe({ name: 'alice', extra });

      expect(dto.extra).toEqual(extra);
      expect(ours({ name: 'alice', extra })).toEqual([{ field: 'extra.k\ud800', message: NOT_TEXT }]);
      expect(ours({ name: 'alice', extra: { list: ['ok', 'a\u0000'] } })).toEqual([
        { field: 'extra.list[1]', message: NOT_TEXT },
      ]);
    });
  });

  describe('depth', () => {
    // The body is level 1 and `extra` level 2, so `extra` nested this deep reaches one level past the limit.
    const pastLimit = MAX_INPUT_DEPTH;
    const deepestPath = ['extra', ...Array<string>(MAX_INPUT_DEPTH - 1).fill('a')].join('.');
    const tooDeep = { field: deepestPath, message: `is nested deeper than ${MAX_INPUT_DEPTH} levels` };

    it('Nest passes nesting past our limit through to the handler; ours names the level past it', async () => {
      const dto = await nestPipe({ name: 'alice', extra: nested(pastLimit) });

      expect(dto.extra).toEqual(nested(pastLimit));
      expect(ours({ name: 'alice', extra: nested(pastLimit) })).toEqual([tooDeep]);
      expect(ours({ name: 'alice', extra: nested(pastLimit - 1) })).toEqual([]);
    });

    it('Nest overflows the call stack on 100,000 levels (a 500, no field named); ours names the same level', async () => {
      await expect(nestPipe({ name: 'alice', extra: nested(100_000) })).rejects.toThrow(RangeError);
      expect(ours({ name: 'alice', extra: nested(100_000) })).toEqual([tooDeep]);
    });
  });
});
