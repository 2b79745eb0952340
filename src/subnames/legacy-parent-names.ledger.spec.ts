import { DataSource, EntityManager } from 'typeorm';
import { legacyParentNames, loadLegacyParentNames } from './legacy-parent-names';
import { LegacyParentNamesLedger } from './legacy-parent-names.ledger';
import { LegacyParentNamesRepository } from './legacy-parent-names.repository';

/** The repository over an in-memory ledger: `candidates` are what the partial index would hand over. */
class FakeRepository extends LegacyParentNamesRepository {
  readonly ledger = new Set<string>();
  constructor(private readonly candidates: string[]) {
    super();
  }
  override lengthOutliers(): Promise<string[]> {
    return Promise.resolve(this.candidates);
  }
  override record(_: EntityManager, names: string[]): Promise<number> {
    const before = this.ledger.size;
    for (const n of names) this.ledger.add(n);
    return Promise.resolve(this.ledger.size - before);
  }
  override findAll(): Promise<string[]> {
    return Promise.resolve([...this.ledger]);
  }
}

const oneTransaction = { transaction: (work: (m: EntityManager) => unknown) => work({} as EntityManager) };

describe(LegacyParentNamesLedger.name, () => {
  afterEach(() => loadLegacyParentNames([]));

  it('records the candidates outside 7–255 UTF-16 units, keeps the ledger, and loads it all', async () => {
    const long = `${'hpa'.repeat(84)}.eth`; // 256
    const edge = `${'hpa'.repeat(83)}.eth23`; // 255: a candidate (over 127 code points) inside the bounds
    expect([long.length, edge.length]).toEqual([256, 255]);
    const repository = new FakeRepository(['ab.eth', 'abc.eth', long, edge]);
    repository.ledger.add('gone.x'); // recorded by an earlier start; its subnames were deleted since
    const sut = new LegacyParentNamesLedger(repository, oneTransaction as unknown as DataSource);

    await sut.onModuleInit();

    expect([...repository.ledger].sort()).toEqual(['ab.eth', 'gone.x', long].sort());
    expect([...legacyParentNames].sort()).toEqual(['ab.eth', 'gone.x', long].sort());
  });

  it('loads an empty set when nothing was stored under the old rule', async () => {
    loadLegacyParentNames(['stale.x']);
    const sut = new LegacyParentNamesLedger(new FakeRepository(['abc.eth']), oneTransaction as unknown as DataSource);
    await sut.onModuleInit();
    expect(legacyParentNames.size).toBe(0);
  });
});
