import { ValidationError, ValidationPipe } from '@nestjs/common';
import fc from 'fast-check';
import { SubnameParams } from '../../subnames/dto/subname-params.dto';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsString, ValidateNested } from 'class-validator';
import { MAX_FIELD_ERRORS, ValidationFailedError } from '../errors';
import { NestedType } from './nested-type';
import { AppValidationPipe, flattenValidationErrors } from './validation.pipe';
import { runs } from '../../../test/support/property-runs';

class Entry {
  @IsString() key: string;
  @IsInt() n: number;
}
class Body {
  @IsString() name: string;
  @ValidateNested({ each: true }) @NestedType(() => Entry) entries: Entry[];
}

describe(AppValidationPipe.name, () => {
  const sut = new AppValidationPipe();
  const meta = { type: 'body' as const, metatype: Body };

  async function errorsOf(value: unknown) {
    try {
      await sut.transform(value, meta);
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationFailedError);
      return (e as ValidationFailedError).errors;
    }
    throw new Error('expected a validation failure');
  }

  it('names nested fields by path, one entry per bad field', async () => {
    expect(
      await errorsOf({
        name: 1,
        entries: [
          { key: 'a', n: 1 },
          { key: 2, n: 'x' },
        ],
      }),
    ).toEqual([
      { field: 'name', message: 'must be a string' },
      { field: 'entries[1].key', message: 'must be a string' },
      { field: 'entries[1].n', message: 'must be an integer number' },
    ]);
  });

  it('reports unknown fields and missing ones', async () => {
    const errors = await errorsOf({ entries: [], extra: true });
    expect(errors).toHaveLength(2);
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'is required' },
        { field: 'extra', message: 'is not an accepted field' },
      ]),
    );
  });

  it.each([[[1, 2]], ['text'], [null], [42]])('refuses a body that is not an object: %j', async (body) => {
    expect(await errorsOf(body)).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
  });

  it('takes no body at all as an empty object, so the missing fields are named', async () => {
    expect(await errorsOf(undefined)).toEqual([{ field: 'name', message: 'is required' }]);
  });

  it('does not coerce types', async () => {
    expect(await errorsOf({ name: 'x', entries: [{ key: 'a', n: '5' }] })).toEqual([
      { field: 'entries[0].n', message: 'must be an integer number' },
    ]);
  });
});

it('checks decoded path parameters for NUL and lone surrogates', async () => {
  const sut = new AppValidationPipe();
  const error = await sut.transform('a\u0000b.oak.eth', { type: 'param', data: 'fullName' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationFailedError);
  expect((error as ValidationFailedError).errors).toEqual([
    { field: 'fullName', message: 'must not contain NUL characters or unpaired UTF-16 surrogates' },
  ]);
  await expect(sut.transform('alice.oak.eth', { type: 'param', data: 'fullName' })).resolves.toBe('alice.oak.eth');
});

describe('path parameters of a DTO class, validated once per distinct value', () => {
  const meta = { type: 'param' as const, metatype: SubnameParams };

  it('gives a repeat what validating it again gives, as a fresh instance, without validating again', async () => {
    const sut = new AppValidationPipe();
    const reference = new AppValidationPipe();
    const validate = jest.spyOn(ValidationPipe.prototype, 'transform');
    const names = fc.oneof(
      fc.constantFrom('Alice.OAK.eth', 'alice.oak.eth', 'ÖL.oak.eth', '🦊.oak.eth', 'a.b', 'x..eth', ''),
      fc.stringMatching(/^[A-Za-z0-9-]{1,8}\.[a-z]{1,5}\.eth$/),
    );
    await fc.assert(
      fc.asyncProperty(names, async (fullName) => {
        const outcome = (p: AppValidationPipe) =>
          p.transform({ fullName }, meta).then(
            (dto) => ({ dto }),
            (e: ValidationFailedError) => ({ errors: e.errors }),
          );
        const expected = await outcome(reference);
        validate.mockClear();
        const first = await outcome(sut);
        const calls = validate.mock.calls.length;
        const again = await outcome(sut);
        expect(first).toEqual(expected);
        expect(again).toEqual(expected);
        if ('dto' in again) {
          expect(again.dto).toBeInstanceOf(SubnameParams);
          expect(again.dto).not.toBe((first as { dto: object }).dto);
          // Remembered: no second validation.
          expect(validate.mock.calls.length).toBe(calls);
        } else {
          // A refusal is never remembered.
          expect(validate.mock.calls.length).toBe(2 * calls);
        }
      }),
      { seed: 20261124, numRuns: runs(300) },
    );
    validate.mockRestore();
  });

  it('a DTO a handler changed does not change what the next request gets', async () => {
    const sut = new AppValidationPipe();
    const first = (await sut.transform({ fullName: 'Bob.oak.eth' }, meta)) as SubnameParams;
    first.fullName = 'changed';
    await expect(sut.transform({ fullName: 'Bob.oak.eth' }, meta)).resolves.toEqual({ fullName: 'bob.oak.eth' });
  });

  it('still refuses NUL characters in a parameters object', async () => {
    const sut = new AppValidationPipe();
    const error = await sut.transform({ fullName: 'a\u0000b.oak.eth' }, meta).catch((e: unknown) => e);
    expect((error as ValidationFailedError).errors).toEqual([
      { field: 'fullName', message: 'must not contain NUL characters or unpaired UTF-16 surrogates' },
    ]);
  });
});

describe(flattenValidationErrors.name, () => {
  it('walks array indexes as [i] and object keys as .key', () => {
    const tree: ValidationError[] = [
      {
        property: 'a',
        children: [
          { property: '3', children: [{ property: 'b', value: 7, constraints: { x: 'b is bad' }, children: [] }] },
        ],
      },
    ];
    expect(flattenValidationErrors(tree)).toEqual({ errors: [{ field: 'a[3].b', message: 'is bad' }], total: 1 });
  });
});

describe('bounded work on large inputs', () => {
  let transformed = 0;
  class Item {
    @Transform(({ value }: { value: unknown }) => {
      transformed++;
      return value;
    })
    @IsString()
    key: string;
  }
  class Holder {
    @IsArray() @ArrayMaxSize(3) @ValidateNested({ each: true }) @NestedType(() => Item) items: Item[];
  }
  class Outer {
    @IsArray() @ArrayMaxSize(1000) @ValidateNested({ each: true }) @NestedType(() => Holder) holders: Holder[];
  }
  const sut = new AppValidationPipe();

  async function failureOf(value: unknown, metatype: new () => object): Promise<ValidationFailedError> {
    try {
      await sut.transform(value, { type: 'body', metatype });
    } catch (e) {
      return e as ValidationFailedError;
    }
    throw new Error('expected a validation failure');
  }

  beforeEach(() => (transformed = 0));

  it('refuses an array past its bound without transforming or validating one element', async () => {
    const error = await failureOf({ holders: Array.from({ length: 70_000 }, () => ({ items: [{}] })) }, Outer);
    expect(error.errors).toEqual([
      { field: 'holders', message: 'must contain no more than 1000 elements (70000 given)' },
    ]);
    expect(error.moreErrors).toBe(0);
    expect(transformed).toBe(0);
  });

  it('finds a nested array past its bound inside an array within its own, by path, before any element', async () => {
    const error = await failureOf({ holders: [{ items: [] }, { items: [{}, {}, {}, {}] }] }, Outer);
    expect(error.errors).toEqual([
      { field: 'holders[1].items', message: 'must contain no more than 3 elements (4 given)' },
    ]);
    expect(transformed).toBe(0);
  });

  it('finds the nested classes of a DTO through the class it extends', async () => {
    class Derived extends Outer {}
    const error = await failureOf({ holders: [{ items: [{}, {}, {}, {}] }] }, Derived);
    expect(error.errors).toEqual([
      { field: 'holders[0].items', message: 'must contain no more than 3 elements (4 given)' },
    ]);
    expect(transformed).toBe(0);
  });

  it('will not validate a DTO with a nested property whose class it cannot see', async () => {
    class Unmarked {
      @IsArray() @ValidateNested({ each: true }) items: Item[];
    }
    await expect(sut.transform({ items: [] }, { type: 'body', metatype: Unmarked })).rejects.toThrow(
      'Unmarked.items is validated nested but its class is not given with @NestedType',
    );
  });

  it('lists the first 100 bad fields and counts the rest', async () => {
    const holders = Array.from({ length: 1000 }, () => ({ items: [{ key: 1 }, { key: 2 }, { key: 3 }] }));
    const error = await failureOf({ holders }, Outer);
    expect(transformed).toBe(3000);
    expect(error.errors).toHaveLength(MAX_FIELD_ERRORS);
    expect(error.errors![0]).toEqual({ field: 'holders[0].items[0].key', message: 'must be a string' });
    expect(error.errors![99]).toEqual({ field: 'holders[33].items[0].key', message: 'must be a string' });
    expect(error.moreErrors).toBe(2900);
    expect(error.detail).toBe('3000 fields are invalid');
  });
});
