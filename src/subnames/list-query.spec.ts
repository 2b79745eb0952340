import { ValidationFailedError } from '../common/errors';
import { ListSubnamesQueryDto } from './dto/search-subnames.dto';
import { gatherListQuery, ListQueryValidationPipe } from './list-query';

describe(gatherListQuery.name, () => {
  it('gathers metadata[k]=v keys, which the simple query parser leaves flat', () => {
    expect(gatherListQuery({ parentName: 'oak.eth', 'metadata[tier]': 'gold', 'metadata[team]': 'red' })).toEqual({
      parentName: 'oak.eth',
      metadata: { tier: 'gold', team: 'red' },
    });
  });

  it('merges a JSON metadata object with metadata[k]=v keys; leaves anything else for the validator', () => {
    expect(gatherListQuery({ metadata: '{"tier":"gold"}', 'metadata[team]': 'red' })).toEqual({
      metadata: { tier: 'gold', team: 'red' },
    });
    expect(gatherListQuery({ metadata: 'nope', 'metadata[team]': 'red' })).toEqual({ metadata: 'nope' });
    expect(gatherListQuery({ metadata: '{"tier":"gold"}' })).toEqual({ metadata: { tier: 'gold' } });
    expect(gatherListQuery({ metadata: '[1]' })).toEqual({ metadata: [1] });
  });

  it.each([
    ['{"tier":"a\\u0000b"}', 'metadata.tier'],
    ['{"tier":"\\ud800"}', 'metadata.tier'],
    ['{"\\udfff":"x"}', 'metadata.\udfff'],
    [`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`, `metadata${'.a'.repeat(32)}`],
  ])('refuses unsafe content inside the metadata JSON: %s at %s', (json, field) => {
    let error: unknown;
    try {
      gatherListQuery({ parentName: 'oak.eth', metadata: json });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect((error as ValidationFailedError).errors![0].field).toBe(field);
  });

  it('gathers parentNames and parentNames[] into one list', () => {
    expect(gatherListQuery({ parentNames: 'a.eth,b.eth', 'parentNames[]': ['c.eth', 'd.eth'] })).toEqual({
      parentNames: ['a.eth,b.eth', 'c.eth', 'd.eth'],
    });
  });
});

describe(ListQueryValidationPipe.name, () => {
  const sut = new ListQueryValidationPipe();
  const validate = (query: Record<string, unknown>) =>
    sut.transform(gatherListQuery(query), { type: 'custom', metatype: ListSubnamesQueryDto });

  it('converts page, size, comma-separated parentNames and JSON metadata from strings', async () => {
    const dto = (await validate({
      parentNames: 'oak.eth,pine.eth',
      page: '3',
      size: '7',
      metadata: '{"tier":"gold"}',
      labelSearch: 'ali',
    })) as ListSubnamesQueryDto;
    expect(dto).toBeInstanceOf(ListSubnamesQueryDto);
    expect(dto).toMatchObject({
      parentNames: ['oak.eth', 'pine.eth'],
      page: 3,
      size: 7,
      metadata: { tier: 'gold' },
      labelSearch: 'ali',
    });
  });

  it('defaults page 1 and size 25', async () => {
    expect(await validate({ parentName: 'oak.eth' })).toMatchObject({ parentName: 'oak.eth', page: 1, size: 25 });
  });

  it.each([
    [{ parentName: 'oak.eth', page: '0' }, 'page'],
    [{ parentName: 'oak.eth', page: '1e3' }, 'page'],
    [{ parentName: 'oak.eth', size: '101' }, 'size'],
    [{ parentName: 'oak.eth', 'metadata[tier]': ['a', 'b'] }, 'metadata'],
    [{ parentName: 'oak.eth', sort: 'label' }, 'sort'],
    [{ labelSearch: 'x' }, 'parentName'],
  ])('refuses %j, naming %s', async (query, field) => {
    const error = await validate(query).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect((error as ValidationFailedError).errors!.map((e) => e.field)).toContain(field);
  });
});
