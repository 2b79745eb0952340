import { IsInt, IsString, ValidateNested } from 'class-validator';
import fc from 'fast-check';
import { BatchSubnamesDto } from '../../subnames/dto/batch-subnames.dto';
import { ValidationFailedError } from '../errors';
import { runs } from '../../../test/support/property-runs';
import { SLICE_WEIGHT, ValidatedInSlices } from './sliced-array';
import { AppValidationPipe } from './validation.pipe';

/** The same DTO without the mark: validated whole, in one synchronous stretch, as before slicing. */
class WholeBatchDto extends BatchSubnamesDto {}

class Entry {
  @IsString() key: string;
}
/** A sliced array between two other properties: its errors go between theirs. */
class Mixed {
  @IsString() name: string;
  @ValidateNested({ each: true }) @ValidatedInSlices(() => Entry) entries: Entry[];
  @IsInt() n: number;
}
class WholeMixed extends Mixed {}

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

/** A valid item of 4 addresses (weight 5); its lower-case EVM addresses come out EIP-55. */
function goodItem(i: number): Record<string, unknown> {
  const addresses = [
    { coin: 60, value: ADDRESS.toLowerCase() },
    { coin: 0, value: BTC },
    { coin: 501, value: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
    { coin: 2147492101, value: ADDRESS },
  ];
  return { parentName: 'oak.eth', label: `Item${i}`, addresses };
}

/** Every kind of fault an item can have, one per index, cycling. */
const FAULTS: ((item: Record<string, unknown>, i: number) => void)[] = [
  () => {},
  (item) => ((item.addresses as { value: string }[])[1].value = 'not-an-address'),
  (item) => (item.extra = true),
  (item) => delete item.label,
  (item) => (item.label = 'item0'), // repeats items[0]
  (item) => (item.ttl = -1),
  (item) => (item.texts = [{ key: 'a', value: 'x' }, { key: 'a', value: 'y' }, 'text']),
  (item) => (item.parentName = 42),
  (item) => (item.addresses = [{ coin: 'sixty', value: ADDRESS, more: 1 }]),
  (item) => (item.owner = 'nobody'),
  (item) => (item.metadata = { tier: 'gold' }),
];

function faultyBatch(size: number, faults: number[]): { items: Record<string, unknown>[] } {
  return {
    items: Array.from({ length: size }, (_, i) => {
      const item = goodItem(i);
      FAULTS[faults[i % faults.length] % FAULTS.length](item, i);
      return item;
    }),
  };
}

/**
 * Batches that end exactly at a slice boundary, just past one, and span three slices (items weigh 5, so SLICE_WEIGHT
 * / 5 to a slice): a fault of every kind with an unknown top-level field, and items[0]'s label repeated later.
 */
function boundaryExamples(): [number, number[], object][] {
  const perSlice = SLICE_WEIGHT / 5;
  return [perSlice, perSlice + 1, 2 * perSlice + 1].flatMap((size): [number, number[], object][] => [
    [size, [...FAULTS.keys()], { extra: 1 }],
    [size, [...Array<number>(11).fill(0), 4], {}],
  ]);
}

async function outcome(sut: AppValidationPipe, metatype: new () => object, body: unknown) {
  try {
    return { dto: await sut.transform(structuredClone(body), { type: 'body', metatype }) };
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationFailedError);
    const { errors, moreErrors } = e as ValidationFailedError;
    return { errors, moreErrors };
  }
}

const BOUNDARY_EXAMPLES = boundaryExamples();

describe('ValidatedInSlices (a batch validated a slice at a time)', () => {
  const sut = new AppValidationPipe();

  it('yields to the event loop between slices: a recurring setImmediate runs many times meanwhile', async () => {
    // 1,000 items weighing 5 units each (an item and its 4 addresses): 25 slices for the build, 25 to validate.
    const body = { items: Array.from({ length: 1000 }, (_, i) => goodItem(i)) };
    const slices = Math.ceil((1000 * 5) / SLICE_WEIGHT);
    let ticks = 0;
    let done = false;
    const tick = () => {
      ticks++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const dto = (await sut.transform(body, { type: 'body', metatype: BatchSubnamesDto })) as BatchSubnamesDto;
    done = true;
    expect(ticks).toBeGreaterThanOrEqual(2 * (slices - 1));
    expect(dto).toBeInstanceOf(BatchSubnamesDto);
    expect(dto.items).toHaveLength(1000);
    expect(dto.items[999].label).toBe('item999');
    expect(dto.items[2].addresses?.[0]).toEqual({ coin: 60, value: ADDRESS });
    expect(dto.items[3].addresses?.[1]).toEqual({ coin: 0, value: BTC });
  });

  it('while the same batch validated whole lets no setImmediate run before it is done', async () => {
    const body = { items: Array.from({ length: 1000 }, (_, i) => goodItem(i)) };
    let ticks = 0;
    setImmediate(() => ticks++);
    await sut.transform(body, { type: 'body', metatype: WholeBatchDto });
    expect(ticks).toBe(0);
  });

  it('refuses a large invalid batch with exactly the errors of validating it whole: paths, messages, order', async () => {
    const body = faultyBatch(1000, [...FAULTS.keys()]);
    const sliced = await outcome(sut, BatchSubnamesDto, body);
    const whole = await outcome(sut, WholeBatchDto, body);
    expect(sliced).toEqual(whole);
    expect(sliced.errors?.slice(0, 6)).toEqual([
      {
        field: 'items[1].addresses[1].value',
        message: expect.stringMatching(/^is not a valid btc address \(Unknown letter: "-"/) as string,
      },
      { field: 'items[2].extra', message: 'is not an accepted field' },
      { field: 'items[3].label', message: 'is required' },
      { field: 'items[4].label', message: 'repeats the fullName item0.oak.eth of items[0]' },
      { field: 'items[5].ttl', message: 'must not be less than 0' },
      expect.objectContaining({ field: 'items[6].texts' }),
    ]);
    expect(sliced.moreErrors).toBeGreaterThan(0);
  });

  it('gives the same DTO or the same errors as validating whole, for any mix of faults and sizes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 120 }),
        fc.array(fc.nat({ max: FAULTS.length * 3 }), { minLength: 1, maxLength: 12 }),
        fc.constantFrom({}, { extra: 1 }, { items2: [] }),
        async (size, faults, top) => {
          // Mostly good items (a fault index past FAULTS' length stands for none), so many batches pass whole.
          const body = {
            ...top,
            ...faultyBatch(
              size,
              faults.map((f) => (f < FAULTS.length ? f : 0)),
            ),
          };
          expect(await outcome(sut, BatchSubnamesDto, body)).toEqual(await outcome(sut, WholeBatchDto, body));
        },
      ),
      // fast-check counts the examples among numRuns: they come on top of the generated cases.
      { numRuns: runs(200) + BOUNDARY_EXAMPLES.length, seed: 352, examples: BOUNDARY_EXAMPLES },
    );
  });

  it('leaves an array with anything but objects in it to the whole validation, with its errors', async () => {
    const body = { items: [goodItem(0), 5, [goodItem(1)], null] };
    const sliced = await outcome(sut, BatchSubnamesDto, body);
    expect(sliced).toEqual(await outcome(sut, WholeBatchDto, body));
    expect(sliced.errors?.map((e) => e.field)).toContain('items');
  });

  it.each([
    ['every property bad', { name: 1, entries: [...Array(299).fill({ key: 'a' }), { key: 2 }], n: 'x', extra: 1 }],
    ['only the array bad', { name: 'a', entries: [{ key: 2 }, ...Array(299).fill({ key: 'a' })], n: 1 }],
    ['all but the array bad', { entries: Array(300).fill({ key: 'a' }), n: 'x', more: 2 }],
  ])('puts the array errors where the whole validation does, among other properties: %s', async (_, body) => {
    const sliced = await outcome(sut, Mixed, body);
    expect(sliced).toEqual(await outcome(sut, WholeMixed, body));
    expect(sliced.errors?.length).toBeGreaterThan(0);
  });
});
