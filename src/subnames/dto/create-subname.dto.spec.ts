import { ValidationFailedError } from '../../common/errors';
import { AppValidationPipe } from '../../common/validation/validation.pipe';
import { normalizeName } from '../../common/ens/names';
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

describe('parent name length bounds (7–255 of the normalised form, no exception)', () => {
  const long = normalizeName(`${['\u3371'.repeat(40), '\u3371'.repeat(40), '\u3371'.repeat(40)].join('.')}.oak.eth`);

  it('refuses ab.eth and ab\\u00ad.eth (a soft hyphen), saying when normalisation made it short', async () => {
    expect(await refusal(CreateSubnameDto, { parentName: 'ab.eth', label: 'x' })).toEqual([
      { field: 'parentName', message: 'must be longer than or equal to 7 characters' },
    ]);
    expect(await refusal(CreateSubnameDto, { parentName: 'ab\u00ad.eth', label: 'x' })).toEqual([
      { field: 'parentName', message: 'must be longer than or equal to 7 characters after ENSIP-15 normalisation' },
    ]);
  });

  it('refuses a parent over 255 characters on create, list and export', async () => {
    expect(long.length).toBeGreaterThan(255);
    expect(await refusal(CreateSubnameDto, { parentName: long, label: 'x' })).toEqual([
      { field: 'parentName', message: 'must be shorter than or equal to 255 characters' },
    ]);
    const tooLong = [{ field: 'parentName', message: 'must be shorter than or equal to 255 characters' }];
    expect(await refusal(ListSubnamesQueryDto, { parentName: long })).toEqual(tooLong);
    expect(await refusal(ExportSubnamesQueryDto, { parentName: long })).toEqual([
      { field: 'parentName', message: '[0] must be shorter than or equal to 255 characters' },
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
