import { insertApiKey, useMigratedDatabase } from '../../test/support/pglite-data-source';
import { QuotaRepository } from './quota.repository';

const KEY = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

// On the migrated schema (PGlite, through TypeORM and pg as in the service): what the statements leave in key_quotas.
describe(QuotaRepository.name, () => {
  const db = useMigratedDatabase('key_quotas, api_keys');
  const sut = new QuotaRepository();

  beforeEach(async () => {
    await insertApiKey(db.manager, KEY, 'e'.repeat(64));
    await insertApiKey(db.manager, OTHER, 'f'.repeat(64));
    await sut.create(db.manager, KEY, 5);
    await sut.create(db.manager, OTHER, 1);
  });

  it('create starts a key at 0 used; find reads it; an unknown key has none', async () => {
    expect(await sut.find(db.manager, KEY)).toEqual({ limit: 5, used: 0 });
    expect(await sut.find(db.manager, '00000000-0000-4000-8000-000000000009')).toBeNull();
  });

  it('charge takes exactly the units asked while that many are left, and only from that key', async () => {
    expect(await sut.charge(db.manager, KEY, 3)).toEqual({ limit: 5, used: 3 });
    expect(await sut.charge(db.manager, KEY, 2)).toEqual({ limit: 5, used: 5 });
    expect(await sut.find(db.manager, OTHER)).toEqual({ limit: 1, used: 0 });
  });

  it('charge past the limit takes nothing and answers null', async () => {
    await sut.charge(db.manager, KEY, 4);
    expect(await sut.charge(db.manager, KEY, 2)).toBeNull();
    expect(await sut.find(db.manager, KEY)).toEqual({ limit: 5, used: 4 });
    expect(await sut.charge(db.manager, KEY, 1)).toEqual({ limit: 5, used: 5 });
  });

  it('findMany answers the keys asked for that have a quota, by key id', async () => {
    await sut.charge(db.manager, OTHER, 1);
    const found = await sut.findMany(db.manager, [KEY, OTHER, '00000000-0000-4000-8000-000000000009']);
    expect(Object.fromEntries(found)).toEqual({ [KEY]: { limit: 5, used: 0 }, [OTHER]: { limit: 1, used: 1 } });
    expect((await sut.findMany(db.manager, [])).size).toBe(0);
  });

  it('setLimit changes the limit and keeps what was used; a lower limit refuses the next charge', async () => {
    await sut.charge(db.manager, KEY, 3);
    await sut.setLimit(db.manager, KEY, 3);
    expect(await sut.find(db.manager, KEY)).toEqual({ limit: 3, used: 3 });
    expect(await sut.charge(db.manager, KEY, 1)).toBeNull();
  });
});
