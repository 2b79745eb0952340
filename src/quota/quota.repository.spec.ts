import type { EntityManager } from 'typeorm';
import { migratedDatabase, MigratedDatabase } from '../../test/support/pglite-data-source';
import { QuotaRepository } from './quota.repository';

const KEY = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

// On the migrated schema (PGlite, through TypeORM and pg as in the service): what the statements leave in key_quotas.
describe(QuotaRepository.name, () => {
  let db: MigratedDatabase;
  let manager: EntityManager;
  const sut = new QuotaRepository();

  beforeAll(async () => {
    db = await migratedDatabase();
    manager = db.dataSource.manager;
  });
  afterAll(() => db?.close());
  beforeEach(async () => {
    await manager.query('TRUNCATE key_quotas, api_keys CASCADE');
    for (const [id, hash] of [
      [KEY, 'e'.repeat(64)],
      [OTHER, 'f'.repeat(64)],
    ]) {
      await manager.query(
        `INSERT INTO api_keys (id, name, key_prefix, key_hash, parent_names) VALUES ($1, 'k', 'sns_k', $2, '{oak.eth}')`,
        [id, hash],
      );
    }
    await sut.create(manager, KEY, 5);
    await sut.create(manager, OTHER, 1);
  });

  it('create starts a key at 0 used; find reads it; an unknown key has none', async () => {
    expect(await sut.find(manager, KEY)).toEqual({ limit: 5, used: 0 });
    expect(await sut.find(manager, '00000000-0000-4000-8000-000000000009')).toBeNull();
  });

  it('charge takes exactly the units asked while that many are left, and only from that key', async () => {
    expect(await sut.charge(manager, KEY, 3)).toEqual({ limit: 5, used: 3 });
    expect(await sut.charge(manager, KEY, 2)).toEqual({ limit: 5, used: 5 });
    expect(await sut.find(manager, OTHER)).toEqual({ limit: 1, used: 0 });
  });

  it('charge past the limit takes nothing and answers null', async () => {
    await sut.charge(manager, KEY, 4);
    expect(await sut.charge(manager, KEY, 2)).toBeNull();
    expect(await sut.find(manager, KEY)).toEqual({ limit: 5, used: 4 });
    expect(await sut.charge(manager, KEY, 1)).toEqual({ limit: 5, used: 5 });
  });

  it('findMany answers the keys asked for that have a quota, by key id', async () => {
    await sut.charge(manager, OTHER, 1);
    const found = await sut.findMany(manager, [KEY, OTHER, '00000000-0000-4000-8000-000000000009']);
    expect(Object.fromEntries(found)).toEqual({ [KEY]: { limit: 5, used: 0 }, [OTHER]: { limit: 1, used: 1 } });
    expect((await sut.findMany(manager, [])).size).toBe(0);
  });

  it('setLimit changes the limit and keeps what was used; a lower limit refuses the next charge', async () => {
    await sut.charge(manager, KEY, 3);
    await sut.setLimit(manager, KEY, 3);
    expect(await sut.find(manager, KEY)).toEqual({ limit: 3, used: 3 });
    expect(await sut.charge(manager, KEY, 1)).toBeNull();
  });
});
