import { ValidationPipe } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { Allow, IsString } from 'class-validator';
import { ValidationFailedError } from '../errors';
import { parseQuery } from '../http/query';
import { ListSubnamesQueryDto, SearchSubnamesDto } from '../../subnames/dto/search-subnames.dto';
import { detachFreeKeyMaps, FreeKeyMap, freeKeyMapFields } from './free-key-map';
import { AppValidationPipe } from './validation.pipe';

/** The names of Object.prototype's methods: ordinary words as metadata keys. */
const METHOD_NAMES = [
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
];
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype'];

/** A metadata filter naming every key given, each with its own value, parsed as express.json parses it. */
function bodyWith(keys: string[]): { parentName: string; metadata: Record<string, string> } {
  const pairs = keys.map((key) => `${JSON.stringify(key)}: ${JSON.stringify(`v-${key}`)}`);
  return JSON.parse(`{"parentName": "oak.eth", "metadata": {${pairs.join(', ')}}}`) as {
    parentName: string;
    metadata: Record<string, string>;
  };
}

/** The map as own entries, in order: what a filter on it would match. */
const entriesOf = (map: object) => Object.entries(map);

/** The search DTO's metadata field as it would be without FreeKeyMap: the library builds it. */
class LibraryMapDto {
  @IsString() parentName: string;
  @Allow() metadata?: Record<string, string>;
}

/** AppValidationPipe's options, its error factory aside. */
const PIPE_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
};

describe('class-transformer on a map whose keys are data (the job FreeKeyMap does)', () => {
  const ordinary = ['tier', 'prototype'];

  it('plainToInstance, as the pipe calls it, loses __proto__ and every Object.prototype method name', () => {
    const body = bodyWith(['__proto__', ...METHOD_NAMES, ...ordinary]);
    expect(Object.keys(body.metadata)).toHaveLength(13);

    const dto = plainToInstance(LibraryMapDto, body, PIPE_OPTIONS.transformOptions);

    expect(entriesOf(dto.metadata!)).toEqual([
      ['tier', 'v-tier'],
      ['prototype', 'v-prototype'],
    ]);
  });

  it.each(['"on"', '{"a": "b"}', '1'])(
    'plainToInstance throws a TypeError (a 500, not a 400) on a constructor key holding %s',
    (value) => {
      const body: unknown = JSON.parse(`{"parentName": "oak.eth", "metadata": {"constructor": ${value}}}`);
      expect(() => plainToInstance(LibraryMapDto, body, PIPE_OPTIONS.transformOptions)).toThrow(TypeError);
    },
  );

  it("Nest's ValidationPipe with our options strips the prototype names silently, then loses the method names", async () => {
    const body = bodyWith([...PROTOTYPE_NAMES, ...METHOD_NAMES, 'tier']);

    const dto = (await new ValidationPipe(PIPE_OPTIONS).transform(body, {
      type: 'body',
      metatype: LibraryMapDto,
    })) as LibraryMapDto;

    // Fourteen keys asked for, one filtered on, no error: the filter silently matches more than was asked.
    expect(entriesOf(dto.metadata!)).toEqual([['tier', 'v-tier']]);
  });

  it('AppValidationPipe with FreeKeyMap keeps every key and value exactly, on POST', async () => {
    const keys = [...PROTOTYPE_NAMES, ...METHOD_NAMES, 'tier'];

    const dto = (await new AppValidationPipe().transform(bodyWith(keys), {
      type: 'body',
      metatype: SearchSubnamesDto,
    })) as SearchSubnamesDto;

    expect(dto).toBeInstanceOf(SearchSubnamesDto);
    expect(dto.parentName).toBe('oak.eth');
    expect(entriesOf(dto.metadata!)).toEqual(keys.map((key) => [key, `v-${key}`]));
    expect(Object.getPrototypeOf(dto.metadata)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(dto.metadata, '__proto__')).toMatchObject({ value: 'v-__proto__' });
  });

  it('AppValidationPipe with FreeKeyMap keeps them on GET, bracketed and as JSON, in a plain object', async () => {
    const query = parseQuery(
      'parentName=oak.eth&metadata[constructor]=a&metadata[toString]=b' +
        `&metadata=${encodeURIComponent('{"__proto__": "c", "prototype": "d"}')}`,
    );

    const dto = (await new AppValidationPipe().transform(query, {
      type: 'query',
      metatype: ListSubnamesQueryDto,
    })) as ListSubnamesQueryDto;

    expect(entriesOf(dto.metadata!)).toEqual([
      ['__proto__', 'c'],
      ['prototype', 'd'],
      ['constructor', 'a'],
      ['toString', 'b'],
    ]);
    expect(Object.getPrototypeOf(dto.metadata)).toBe(Object.prototype);
  });

  it('AppValidationPipe reports the map and the other fields in one failure', async () => {
    const body: unknown = JSON.parse('{"parentName": 7, "metadata": {"constructor": {"nested": "x"}}}');

    const failure = await new AppValidationPipe()
      .transform(body, { type: 'body', metatype: SearchSubnamesDto })
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(ValidationFailedError);
    expect((failure as ValidationFailedError).errors).toEqual([
      { field: 'parentName', message: expect.any(String) },
      { field: 'metadata', message: 'value of "constructor" must be a string' },
    ]);
  });
});

describe(detachFreeKeyMaps.name, () => {
  const problem = (map: unknown) => (typeof map === 'object' && map !== null ? null : 'must be an object');

  it('takes the maps out of a copy of the input, each as a plain copy with its keys as given', () => {
    const input = JSON.parse('{"a": 1, "m": {"__proto__": "x", "constructor": "y"}, "n": {"toString": "z"}}') as Record<
      string,
      unknown
    >;

    const { rest, maps, problems } = detachFreeKeyMaps(input, [
      { property: 'm', problem },
      { property: 'n', problem },
    ]);

    expect(rest).toEqual({ a: 1 });
    expect(maps.map(([property, map]) => [property, entriesOf(map)])).toEqual([
      [
        'm',
        [
          ['__proto__', 'x'],
          ['constructor', 'y'],
        ],
      ],
      ['n', [['toString', 'z']]],
    ]);
    expect(maps[0][1]).not.toBe(input.m);
    expect(problems).toEqual([]);
    expect(Object.keys(input)).toEqual(['a', 'm', 'n']);
  });

  it('converts before checking, and names the field of a problem instead of keeping its map', () => {
    const { rest, maps, problems } = detachFreeKeyMaps({ m: '{"k": "v"}', n: 'text', o: 'gone' }, [
      { property: 'm', convert: (raw) => JSON.parse(raw as string), problem },
      { property: 'n', problem },
      { property: 'o', convert: () => undefined, problem: () => null },
      { property: 'absent', problem },
    ]);

    expect(rest).toEqual({});
    expect(maps).toEqual([['m', { k: 'v' }]]);
    expect(problems).toEqual([{ field: 'n', message: 'must be an object' }]);
  });

  it("gathers a converter's validation failures and lets any other error through", () => {
    const refuse = () => {
      throw new ValidationFailedError([{ field: 'm.k', message: 'is bad' }]);
    };
    expect(detachFreeKeyMaps({ m: 'x' }, [{ property: 'm', convert: refuse, problem }]).problems).toEqual([
      { field: 'm.k', message: 'is bad' },
    ]);

    const crash = () => {
      throw new RangeError('not a validation failure');
    };
    expect(() => detachFreeKeyMaps({ m: 'x' }, [{ property: 'm', convert: crash, problem }])).toThrow(RangeError);
  });
});

describe(freeKeyMapFields.name, () => {
  class Base {
    @FreeKeyMap({ problem: () => null }) inherited?: Record<string, string>;
  }
  class Derived extends Base {
    @FreeKeyMap({ problem: () => null }) own?: Record<string, string>;
  }

  it("lists a class's maps and its ancestors'", () => {
    expect(freeKeyMapFields(Derived).map((f) => f.property)).toEqual(['own', 'inherited']);
    expect(freeKeyMapFields(Base).map((f) => f.property)).toEqual(['inherited']);
    expect(freeKeyMapFields(SearchSubnamesDto).map((f) => f.property)).toEqual(['metadata']);
    expect(freeKeyMapFields(LibraryMapDto)).toEqual([]);
  });
});
