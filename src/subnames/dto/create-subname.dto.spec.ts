import { ValidationFailedError } from '../../common/errors';
import { AppValidationPipe } from '../../common/validation/validation.pipe';
import { normalizeName } from '../../common/ens/names';
import { loadLegacyParentNames } from '../legacy-parent-names';
import { CreateSubnameDto } from './create-subname.dto';
import { ExportSubnamesQueryDto } from './export-subnames.dto';
import { ListSubnamesQueryDto } from './search-subnames.dto';

const pipe = new AppValidationPipe();

async function build(metatype: new () => object, body: object): Promise<{ label: string; parentName: string }> {
  return (await pipe.transform(body, { type: 'body', metatype })) as { label: string; parentName: string };
}

async function refusal(metatype: new () => object, body: object): Promise<unknown> {
  try {
    await build(metatype, body);
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationFailedError);
    return (e as ValidationFailedError).errors;
  }
  throw new Error('expected a refusal');
}

describe('name length bounds, held by the normalised form', () => {
  it('refuses a parent whose raw form is 7 characters but whose normalised form is 6 (a soft hyphen)', async () => {
    expect(await refusal(CreateSubnameDto, { parentName: 'ab\u00ad.eth', label: 'x' })).toEqual([
      { field: 'parentName', message: 'must be longer than or equal to 7 characters after ENSIP-15 normalisation' },
    ]);
  });

  it('takes a raw parent over 255 characters whose normalised form fits (zero-width characters)', async () => {
    const raw = `${'\u200b'.repeat(300)}oak.eth`;
    expect((await build(CreateSubnameDto, { parentName: raw, label: 'x' })).parentName).toBe('oak.eth');
  });

  it('refuses a label whose raw form fits but whose normalised form does not (compatibility characters expand)', async () => {
    const raw = '\u3371'.repeat(100); // ㍱ → hpa: 100 characters become 300
    expect(await refusal(CreateSubnameDto, { parentName: 'oak.eth', label: raw })).toEqual([
      { field: 'label', message: 'must be shorter than or equal to 255 characters after ENSIP-15 normalisation' },
    ]);
  });

  it('keeps the plain messages when normalisation changes no length', async () => {
    expect(await refusal(CreateSubnameDto, { parentName: 'a.eth', label: 'x' })).toEqual([
      { field: 'parentName', message: 'must be longer than or equal to 7 characters' },
    ]);
    expect(await refusal(CreateSubnameDto, { parentName: 'oak.eth', label: '' })).toEqual([
      { field: 'label', message: 'must be longer than or equal to 1 characters' },
    ]);
  });

  it('takes every name in the form it is stored in (what an export holds)', async () => {
    for (const raw of ['ab\u00adc.eth', `${'\u200b'.repeat(300)}oak.eth`, '\u3371.oak.eth']) {
      const first = await build(CreateSubnameDto, { parentName: raw, label: 'so\u00adft' });
      expect(await build(CreateSubnameDto, { parentName: first.parentName, label: first.label })).toEqual(first);
    }
  });
});

describe('parents stored under the old length rule (legacyParentNames)', () => {
  const long = normalizeName(`${['\u3371'.repeat(40), '\u3371'.repeat(40), '\u3371'.repeat(40)].join('.')}.oak.eth`);
  afterEach(() => loadLegacyParentNames([]));

  it('accepts ab.eth only while the set holds it, in the stored form and in a raw form that normalises to it', async () => {
    expect(await refusal(CreateSubnameDto, { parentName: 'ab.eth', label: 'x' })).toEqual([
      { field: 'parentName', message: 'must be longer than or equal to 7 characters' },
    ]);
    loadLegacyParentNames(['ab.eth']);
    expect((await build(CreateSubnameDto, { parentName: 'ab.eth', label: 'x' })).parentName).toBe('ab.eth');
    expect((await build(CreateSubnameDto, { parentName: 'ab\u00ad.eth', label: 'x' })).parentName).toBe('ab.eth');
  });

  it('still refuses cd.eth and cd\\u00ad.eth (a soft hyphen), and every other problem of a legacy parent', async () => {
    loadLegacyParentNames(['ab.eth']);
    expect(await refusal(CreateSubnameDto, { parentName: 'cd.eth', label: 'x' })).toEqual([
      { field: 'parentName', message: 'must be longer than or equal to 7 characters' },
    ]);
    expect(await refusal(CreateSubnameDto, { parentName: 'cd\u00ad.eth', label: 'x' })).toEqual([
      { field: 'parentName', message: 'must be longer than or equal to 7 characters after ENSIP-15 normalisation' },
    ]);
    expect(await refusal(CreateSubnameDto, { parentName: 'ab.eth', label: 'x', ttl: -1 })).toEqual([
      { field: 'ttl', message: 'must not be less than 0' },
    ]);
  });

  it('accepts a legacy parent over 255 characters on create, search and export, and no other', async () => {
    expect(long.length).toBeGreaterThan(255);
    expect(await refusal(CreateSubnameDto, { parentName: long, label: 'x' })).toEqual([
      { field: 'parentName', message: 'must be shorter than or equal to 255 characters' },
    ]);
    loadLegacyParentNames([long]);
    expect((await build(CreateSubnameDto, { parentName: long, label: 'x' })).parentName).toBe(long);
    const list = (await pipe.transform({ parentName: long }, { type: 'query', metatype: ListSubnamesQueryDto })) as {
      parentName: string;
    };
    expect(list.parentName).toBe(long);
    const exported = (await pipe.transform(
      { parentName: long },
      { type: 'query', metatype: ExportSubnamesQueryDto },
    )) as {
      parentName: string[];
    };
    expect(exported.parentName).toEqual([long]);
    expect(await refusal(CreateSubnameDto, { parentName: `a${long}`, label: 'x' })).toEqual([
      { field: 'parentName', message: 'must be shorter than or equal to 255 characters' },
    ]);
  });
});

describe('a field of the wrong type', () => {
  const base = { parentName: 'oak.eth', label: 'x' };

  it.each([
    [{ ttl: '3600' }, 'ttl', 'must be an integer number'],
    [{ texts: 'x' }, 'texts', 'must be an array'],
    [{ texts: { avatar: 'a' } }, 'texts', 'must be an array'],
    [{ addresses: 5 }, 'addresses', 'must be an array'],
    [{ label: 5 }, 'label', 'must be a string'],
  ])('%j gets one message saying the type wanted', async (extra, field, message) => {
    expect(await refusal(CreateSubnameDto, { ...base, ...extra })).toEqual([{ field, message }]);
  });

  it('still gets its range rules when the type is right', async () => {
    expect(await refusal(CreateSubnameDto, { ...base, ttl: 4294967296 })).toEqual([
      { field: 'ttl', message: 'must not be greater than 4294967295' },
    ]);
  });
});
