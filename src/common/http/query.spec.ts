import { ValidationFailedError } from '../errors';
import { requestValueProblem } from '../validation/input-safety';
import { parseQuery } from './query';
import { AppValidationPipe } from '../validation/validation.pipe';
import { ListSubnamesQueryDto } from '../../subnames/dto/search-subnames.dto';

describe(parseQuery.name, () => {
  it('keeps plain and repeated parameters as the simple parser does', () => {
    expect({ ...parseQuery('a=1&b=x&b=y') }).toEqual({ a: '1', b: ['x', 'y'] });
  });

  it('reads x[]=v as a list and x[k]=v as an object, one level deep', () => {
    const q = parseQuery('parentNames[]=c.eth&parentNames[]=d.eth&metadata[tier]=gold&metadata[team]=red');
    expect(q.parentNames).toEqual(['c.eth', 'd.eth']);
    expect({ ...(q.metadata as object) }).toEqual({ tier: 'gold', team: 'red' });
    expect({ ...parseQuery('x[]=a') }).toEqual({ x: ['a'] });
  });

  it('keeps every form of a name given plainly and bracketed, for the DTO to combine', () => {
    const q = parseQuery('parentNames=a.eth,b.eth&parentNames[]=c.eth&metadata={"tier":"gold"}&metadata[team]=red');
    expect(q.parentNames).toEqual(['a.eth,b.eth', 'c.eth']);
    expect((q.metadata as unknown[])[0]).toBe('{"tier":"gold"}');
    expect({ ...((q.metadata as unknown[])[1] as object) }).toEqual({ team: 'red' });
  });

  it('builds objects without a prototype, so __proto__ is only a key: a metadata key, refused anywhere else', () => {
    const q = parseQuery('metadata[__proto__]=x&other[__proto__]=y');
    expect(Object.getPrototypeOf(q)).toBeNull();
    expect(Object.keys(q.metadata as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(requestValueProblem(q)).toMatchObject({ field: 'other.__proto__' });
    expect(requestValueProblem(parseQuery('metadata[__proto__]=x'))).toBeNull();
  });
});

describe('GET /subnames query through the global pipe', () => {
  const pipe = new AppValidationPipe();
  const list = (qs: string) =>
    pipe.transform(parseQuery(qs), { type: 'query', metatype: ListSubnamesQueryDto }) as Promise<ListSubnamesQueryDto>;

  it('converts page, size, listed parents and JSON metadata, and normalises the names', async () => {
    const dto = await list('parentNames=Oak.eth,pine.eth&parentNames[]=elm.eth&page=3&size=7&metadata={"tier":"gold"}');
    expect(dto).toBeInstanceOf(ListSubnamesQueryDto);
    expect(dto).toMatchObject({
      parentNames: ['oak.eth', 'pine.eth', 'elm.eth'],
      page: 3,
      size: 7,
      metadata: { tier: 'gold' },
    });
  });

  it.each(['__proto__', 'constructor', 'prototype', 'toString'])(
    'keeps a metadata key %j as an own key of a plain filter, in both forms, merged',
    async (k) => {
      const dto = await list(`parentName=oak.eth&metadata[${k}]=on&metadata=${encodeURIComponent(`{"${k}x":"on"}`)}`);
      expect(Object.getPrototypeOf(dto.metadata)).toBe(Object.prototype);
      expect(Object.entries(dto.metadata!)).toEqual([
        [`${k}x`, 'on'],
        [k, 'on'],
      ]);
    },
  );

  it('merges metadata given as JSON and as brackets; defaults page 1 and size 25', async () => {
    expect(await list('parentName=oak.eth&metadata={"tier":"gold"}&metadata[team]=red')).toMatchObject({
      parentName: 'oak.eth',
      metadata: { tier: 'gold', team: 'red' },
      page: 1,
      size: 25,
    });
  });

  it.each([
    ['parentName=oak.eth&page=0', 'page'],
    ['parentName=oak.eth&page=1e3', 'page'],
    ['parentName=oak.eth&size=101', 'size'],
    ['parentName=oak.eth&page=101&size=100', 'page'],
    ['parentName=oak.eth&metadata[tier]=a&metadata[tier]=b', 'metadata'],
    ['parentName=oak.eth&metadata=notjson', 'metadata'],
    ['parentName=oak.eth&metadata={"tier":"a\\u0000b"}', 'metadata.tier'],
    ['parentName=oak.eth&sort=label', 'sort'],
    ['labelSearch=x', 'parentName'],
  ])('refuses %s, naming %s', async (qs, field) => {
    const error = await list(qs).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect((error as ValidationFailedError).errors!.map((e) => e.field)).toContain(field);
  });
});
