import { normalizeLabelFragment } from '../common/ens/names';
import { AppValidationPipe } from '../common/validation/validation.pipe';
import { ListSubnamesQueryDto, SearchSubnamesDto } from './dto/search-subnames.dto';
import { toSubnameFilter } from './search-filter';

/** The DTO as the global pipe hands it over: validated and canonical. */
function dto(fields: Record<string, unknown>): Promise<SearchSubnamesDto> {
  return new AppValidationPipe().transform(fields, {
    type: 'body',
    metatype: SearchSubnamesDto,
  }) as Promise<SearchSubnamesDto>;
}

describe(normalizeLabelFragment.name, () => {
  it.each([
    ['ALI', 'ali'],
    ['Ä', 'ä'],
    ['_a', '_a'],
    // Not valid ENS on their own: lower-cased, matched literally.
    ['A_B', 'a_b'],
    ['50%', '50%'],
    ['AB--', 'ab--'],
    ['', ''],
  ])('%j → %j', (raw, expected) => {
    expect(normalizeLabelFragment(raw)).toBe(expected);
  });
});

describe(toSubnameFilter.name, () => {
  it('normalises and merges parentName and parentNames, each parent once, in the order given', async () => {
    expect(
      toSubnameFilter(await dto({ parentName: 'Oak.ETH', parentNames: ['pine.eth', 'oak.eth', 'PINE.eth'] })),
    ).toEqual({
      parentNames: ['oak.eth', 'pine.eth'],
    });
    expect(toSubnameFilter(await dto({ parentNames: ['Team.Oak.eth'] }))).toEqual({ parentNames: ['team.oak.eth'] });
  });

  it('lower-cases the owner and the label fragment; keeps metadata', async () => {
    expect(
      toSubnameFilter(
        await dto({
          parentName: 'oak.eth',
          labelSearch: 'ALI',
          owner: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
          metadata: { tier: 'gold' },
        }),
      ),
    ).toEqual({
      parentNames: ['oak.eth'],
      labelSearch: 'ali',
      owner: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
      metadata: { tier: 'gold' },
    });
  });

  it('drops filters that match everything: an empty labelSearch, an empty metadata object', async () => {
    expect(toSubnameFilter(await dto({ parentName: 'oak.eth', labelSearch: '', metadata: {} }))).toEqual({
      parentNames: ['oak.eth'],
    });
  });
});

describe('metadata filter keys named like inherited members', () => {
  it.each(['toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'])(
    'keeps a filter on %j, as any key',
    async (key) => {
      expect(toSubnameFilter(await dto({ parentName: 'oak.eth', metadata: { [key]: 'nope', tier: 'gold' } }))).toEqual({
        parentNames: ['oak.eth'],
        metadata: { [key]: 'nope', tier: 'gold' },
      });
    },
  );

  it('keeps it from the query form too (metadata[toString]=nope)', async () => {
    const query = Object.assign(Object.create(null) as object, {
      parentName: 'oak.eth',
      metadata: Object.assign(Object.create(null) as object, { valueOf: 'nope' }),
    });
    const parsed = (await new AppValidationPipe().transform(query, {
      type: 'query',
      metatype: ListSubnamesQueryDto,
    })) as ListSubnamesQueryDto;
    expect(toSubnameFilter(parsed).metadata).toEqual({ valueOf: 'nope' });
  });

  it.each(['toString', 'valueOf', 'hasOwnProperty'])(
    'refuses an unknown body field %j as any unknown field',
    async (key) => {
      await expect(dto({ parentName: 'oak.eth', [key]: 'x' })).rejects.toMatchObject({
        errors: [{ field: key, message: 'is not an accepted field' }],
      });
      await expect(dto({ parentName: 'oak.eth', somethingElse: 'x' })).rejects.toMatchObject({
        errors: [{ field: 'somethingElse', message: 'is not an accepted field' }],
      });
    },
  );
});
