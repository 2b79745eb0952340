import { ExportPreambles } from './export-preambles';
import { toSubnameResponse } from './dto/subname.response';
import type { DataSource, EntityManager } from 'typeorm';
import { ApiKeysService } from '../auth/api-keys.service';
import { DomainError, SearchTimeoutError } from '../common/errors';
import { loadConfig } from '../config/app-config';
import * as ens from '../common/ens/names';
import * as records from '../common/ens/records';
import { AppValidationPipe } from '../common/validation/validation.pipe';
import type { AuditService } from '../audit/audit.service';
import type { QuotaService } from '../quota/quota.service';
import { CreateSubnameDto } from './dto/create-subname.dto';
import { ExportSubnamesQueryDto } from './dto/export-subnames.dto';
import { SearchSubnamesDto } from './dto/search-subnames.dto';
import { ChangeFeed } from '../cache/change-feed';
import { ReadRouter } from '../reads/read-router';
import { ReadsRepository } from '../reads/reads.repository';
import { SubnameCache } from './subname-cache';
import { SubnameEntity } from './subname.entity';
import { SubnameNotFoundError, SubnameTakenError } from './subnames.errors';
import { toSubnameWrite } from './subname-write';
import { QuotaExceededError } from '../quota/quota.errors';
import type { SubnameWrite } from './subname-row';
import type { SubnamesRepository } from './subnames.repository';
import { EXPORT_PAGE_SIZE, SubnamesService } from './subnames.service';

import { BY, entity, KEY, MANAGER } from '../../test/support/subname-fixtures';

const pipe = new AppValidationPipe();
describe(SubnamesService.name, () => {
  let repository: {
    searchPage: jest.Mock;
    deleteByFullName: jest.Mock;
    findByFullName: jest.Mock;
    write: jest.Mock;
    exportPage: jest.Mock;
  };
  let quota: { refusal: jest.Mock; view: jest.Mock };
  let audit: { record: jest.Mock; recordMany: jest.Mock };
  let cache: SubnameCache;
  /** Commits and evictions, in order. */
  let events: string[];
  let sut: SubnamesService;

  beforeEach(() => {
    repository = {
      searchPage: jest.fn(),
      deleteByFullName: jest.fn(),
      findByFullName: jest.fn(),
      write: jest.fn(),
      exportPage: jest.fn(),
    };
    quota = {
      refusal: jest.fn(async () => new QuotaExceededError(10)),
      view: jest.fn(async () => ({ limit: 10, used: 3, remaining: 7 })),
    };
    audit = { record: jest.fn(async () => undefined), recordMany: jest.fn(async () => undefined) };
    // authorize() is pure: the real one, without its collaborators.
    const keys = Object.create(ApiKeysService.prototype) as ApiKeysService;
    events = [];
    const dataSource = {
      manager: MANAGER,
      transaction: async (work: (m: EntityManager) => Promise<unknown>) => {
        const result = await work(MANAGER);
        events.push('commit');
        return result;
      },
    } as unknown as DataSource;
    const config = loadConfig({ SEARCH_STATEMENT_TIMEOUT_MS: '150' });
    // The real cache and feed (never started: no connection), to see what a write evicts and when.
    const feed = new ChangeFeed(config, dataSource);
    cache = new SubnameCache(feed, repository as unknown as SubnamesRepository, dataSource);
    const evict = cache.evict.bind(cache);
    jest.spyOn(cache, 'evict').mockImplementation((name: string) => {
      events.push(`evict ${name}`);
      evict(name);
    });
    sut = new SubnamesService(
      repository as unknown as SubnamesRepository,
      keys,
      quota as unknown as QuotaService,
      audit as unknown as AuditService,
      dataSource,
      cache,
      config,
      new ReadRouter(config, dataSource, feed, new ReadsRepository()),
      new ExportPreambles(),
    );
  });

  afterEach(() => jest.restoreAllMocks());

  describe('upsert', () => {
    const body = {
      parentName: 'OAK.eth',
      label: 'Alice',
      addresses: [
        { coin: 60, value: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed' },
        { coin: 0, value: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
      ],
      owner: '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359',
      contenthash: 'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4',
    };

    it('normalises a create body exactly once, in the pipe; the service stores it as handed over', async () => {
      const label = jest.spyOn(ens, 'normalizeLabel');
      const name = jest.spyOn(ens, 'normalizeName');
      const address = jest.spyOn(records, 'checkedAddress');
      const contenthash = jest.spyOn(records, 'checkedContenthash');
      repository.write.mockImplementation(async (_m: EntityManager, w: SubnameWrite) => ({
        entity: entity(w.fullName),
        created: true,
        previous: null,
        quota: { limit: 10, used: 1 },
      }));

      const dto = (await pipe.transform(body, { type: 'body', metatype: CreateSubnameDto })) as CreateSubnameDto;
      const result = await sut.upsert(KEY, dto, BY);

      expect(label).toHaveBeenCalledTimes(1);
      expect(name).toHaveBeenCalledTimes(1);
      expect(address).toHaveBeenCalledTimes(2);
      expect(contenthash).toHaveBeenCalledTimes(1);
      const [manager, write, by, createOnly] = repository.write.mock.calls[0] as [
        unknown,
        SubnameWrite,
        unknown,
        unknown,
      ];
      expect(write).toMatchObject({
        fullName: 'alice.oak.eth',
        parentName: 'oak.eth',
        label: 'alice',
        namehash: ens.nameHash('alice.oak.eth'),
        addresses: { '60': '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0': body.addresses[1].value },
        owner: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
        contenthash: body.contenthash,
      });
      // Outside any transaction: the repository's statement records and charges the creation itself (e2e: audit,
      // quota-concurrency).
      expect([manager, by, createOnly]).toEqual([MANAGER, BY, false]);
      expect(events).toEqual(['evict alice.oak.eth']);
      expect(result).toEqual({
        subname: toSubnameResponse(entity('alice.oak.eth')),
        created: true,
        quota: { limit: 10, used: 1, remaining: 9 },
        ended: [],
      });
      expect(audit.record).not.toHaveBeenCalled();
    });

    it('an update answers the row written, not created, with the key’s quota as it stands', async () => {
      const previous = entity('alice.oak.eth');
      const updated = Object.assign(entity('alice.oak.eth'), { owner: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' });
      repository.write.mockResolvedValue({ entity: updated, created: false, previous, quota: { limit: 10, used: 4 } });
      const dto = (await pipe.transform(body, { type: 'body', metatype: CreateSubnameDto })) as CreateSubnameDto;
      expect(await sut.upsert(KEY, dto, BY)).toEqual({
        subname: toSubnameResponse(updated),
        created: false,
        quota: { limit: 10, used: 4, remaining: 6 },
        ended: [],
      });
    });

    it('a creation the statement refuses for quota is 403 QUOTA_EXCEEDED, told by the quota service', async () => {
      repository.write.mockRejectedValue(
        Object.assign(new Error('no creation left'), { driverError: { code: 'SNS01' } }),
      );
      const dto = (await pipe.transform(body, { type: 'body', metatype: CreateSubnameDto })) as CreateSubnameDto;
      await expect(sut.upsert(KEY, dto, BY)).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
      expect(quota.refusal).toHaveBeenCalledWith(MANAGER, KEY.id);
      expect(events).toEqual([]);
    });

    it('checks the scope before writing', async () => {
      const dto = (await pipe.transform(
        { ...body, parentName: 'pine.eth' },
        { type: 'body', metatype: CreateSubnameDto },
      )) as CreateSubnameDto;
      await expect(sut.upsert(KEY, dto, BY)).rejects.toMatchObject({ code: 'FORBIDDEN_PARENT' });
      expect(repository.write).not.toHaveBeenCalled();
    });
  });

  describe('write with a guard (holders)', () => {
    const w: SubnameWrite = {
      ...toSubnameWrite(KEY.id, { parentName: 'oak.eth', label: 'alice' } as CreateSubnameDto),
    };

    it('runs the guard first, then creates only, in one transaction', async () => {
      const guard = jest.fn(async () => {
        events.push('guard');
      });
      repository.write.mockImplementation(async () => {
        events.push('write');
        return { entity: entity('alice.oak.eth'), created: true, previous: null, quota: { limit: 10, used: 2 } };
      });
      const result = await sut.write(w, BY, { createOnly: true, guard });
      expect(repository.write).toHaveBeenCalledWith(MANAGER, w, BY, true);
      expect(events).toEqual(['guard', 'write', 'commit', 'evict alice.oak.eth']);
      expect(result).toMatchObject({ created: true, quota: { limit: 10, used: 2, remaining: 8 } });
    });

    it('a stored name is 409 SUBNAME_TAKEN, thrown inside the transaction, so the guard’s counts are undone', async () => {
      repository.write.mockResolvedValue(null);
      const refused = sut.write(w, BY, { createOnly: true, guard: async () => undefined });
      await expect(refused).rejects.toMatchObject({ constructor: SubnameTakenError, code: 'SUBNAME_TAKEN' });
      expect(events).toEqual([]);
    });
  });

  describe('exportLines', () => {
    const query = async (parentName: string | string[]) =>
      (await pipe.transform(
        { parentName },
        { type: 'query', metatype: ExportSubnamesQueryDto },
      )) as ExportSubnamesQueryDto;
    const drain = async (lines: AsyncIterable<string>) => {
      const out: string[] = [];
      for await (const chunk of lines) out.push(chunk);
      return out;
    };

    it('reads page after page with the cursor, until a short page; a parent under another is read once', async () => {
      const full = Array.from({ length: EXPORT_PAGE_SIZE }, (_, i) => entity(`n${i}.oak.eth`));
      repository.exportPage
        .mockResolvedValueOnce({ items: full, cursor: 'cursor-1' })
        .mockResolvedValueOnce({ items: [entity('last.oak.eth')], cursor: 'cursor-2' });
      const chunks = await drain(sut.exportLines(KEY, await query(['Team.Oak.eth', 'oak.eth'])));
      expect(repository.exportPage.mock.calls).toEqual([
        [MANAGER, 'oak.eth', null, EXPORT_PAGE_SIZE],
        [MANAGER, 'oak.eth', 'cursor-1', EXPORT_PAGE_SIZE],
      ]);
      // Written in pieces small enough to die young (32 KB and one line at most).
      expect(chunks.length).toBeGreaterThan(2);
      for (const chunk of chunks) expect(chunk.length).toBeLessThan(33 * 1024);
      const lines = chunks.join('').trimEnd().split('\n');
      expect(lines).toHaveLength(EXPORT_PAGE_SIZE + 1);
      expect(JSON.parse(lines[EXPORT_PAGE_SIZE])).toEqual({
        parentName: 'oak.eth',
        label: 'last',
        texts: [],
        addresses: [{ coin: 60, value: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }],
        metadata: [],
        owner: null,
        contenthash: null,
        ttl: null,
      });
    });

    it('refuses parents outside the scope before reading anything', async () => {
      const error = (() => {
        try {
          sut.exportLines(KEY, { parentName: ['oak.eth', 'pine.eth'] } as ExportSubnamesQueryDto);
        } catch (e) {
          return e as DomainError;
        }
      })();
      expect(error?.code).toBe('FORBIDDEN_PARENT');
      expect(error?.errors).toEqual([{ field: 'parentName[1]', message: expect.stringContaining('pine.eth') }]);
      expect(repository.exportPage).not.toHaveBeenCalled();
    });
  });

  describe('search', () => {
    it('turns page and size into a window and maps the rows to Subnames', async () => {
      repository.searchPage.mockResolvedValue({ items: [entity('alice.oak.eth')], totalItems: 15 });
      const dto = (await pipe.transform(
        { parentName: 'OAK.eth', page: 3, size: 7 },
        { type: 'body', metatype: SearchSubnamesDto },
      )) as SearchSubnamesDto;
      const page = await sut.search(dto);
      expect(repository.searchPage).toHaveBeenCalledWith(
        MANAGER,
        { parentNames: ['oak.eth'] },
        { limit: 7, offset: 14 },
        150,
      );
      expect(page).toMatchObject({ page: 3, size: 7, totalItems: 15 });
      expect(page.items).toHaveLength(1);
      expect(page.items[0]).toMatchObject({ fullName: 'alice.oak.eth', addresses: { eth: expect.any(String) } });
    });
  });

  it('a search that PostgreSQL cancels at its statement timeout is a 503 SEARCH_TIMEOUT naming the budget', async () => {
    repository.searchPage.mockRejectedValue(
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
    );
    const error = await sut
      .search(Object.assign(new SearchSubnamesDto(), { parentName: 'oak.eth' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SearchTimeoutError);
    expect(error).toMatchObject({ code: 'SEARCH_TIMEOUT', status: 503, headers: { 'Retry-After': '5' } });
    expect((error as SearchTimeoutError).detail).toContain('150 ms');
  });

  it('a search that PostgreSQL cancels at its statement timeout is a 503 SEARCH_TIMEOUT naming the budget', async () => {
    repository.searchPage.mockRejectedValue(
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
    );
    const dto = (await pipe.transform(
      { parentName: 'oak.eth' },
      { type: 'body', metatype: SearchSubnamesDto },
    )) as SearchSubnamesDto;
    const error = await sut.search(dto).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SearchTimeoutError);
    expect(error).toMatchObject({ code: 'SEARCH_TIMEOUT', status: 503, headers: { 'Retry-After': '5' } });
    expect((error as SearchTimeoutError).detail).toContain('150 ms');
  });

  describe('remove', () => {
    it('deletes the name as the path DTO handed it over', async () => {
      repository.deleteByFullName.mockResolvedValue(entity('alice.oak.eth'));
      const removed = await sut.remove(KEY, 'alice.oak.eth', BY);
      expect(repository.deleteByFullName).toHaveBeenCalledWith(MANAGER, 'alice.oak.eth');
      // The key's quota, read in the delete's transaction, for the X-Quota headers.
      expect(quota.view).toHaveBeenCalledWith(MANAGER, KEY.id);
      expect(removed).toEqual({ ended: [], quota: { limit: 10, used: 3, remaining: 7 } });
      expect(audit.record).toHaveBeenCalledWith(
        MANAGER,
        expect.objectContaining({ action: 'subname.delete', subject: 'alice.oak.eth', after: null }),
      );
    });

    it('404 SUBNAME_NOT_FOUND when nothing was deleted', async () => {
      repository.deleteByFullName.mockResolvedValue(null);
      await expect(sut.remove(KEY, 'bob.oak.eth', BY)).rejects.toMatchObject({
        constructor: SubnameNotFoundError,
        code: 'SUBNAME_NOT_FOUND',
      });
    });

    it('checks the scope before touching the database, so existence does not leak', async () => {
      const error = await sut.remove(KEY, 'bob.oakk.eth', BY).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('FORBIDDEN_PARENT');
      expect(repository.deleteByFullName).not.toHaveBeenCalled();
      expect(audit.record).not.toHaveBeenCalled();
    });
  });
  describe('reads through the subname cache', () => {
    it('GET answers the stored entity whole from one load; a name not stored is a 404, cached as well', async () => {
      const stored = entity('alice.oak.eth');
      repository.findByFullName.mockImplementation(async (_m: EntityManager, name: string) =>
        name === 'alice.oak.eth' ? stored : null,
      );
      const first = await sut.findOrFail('alice.oak.eth');
      // Mapped once per cached entity: the same answer object, equal to a fresh mapping.
      expect(await sut.findOrFail('alice.oak.eth')).toBe(first);
      expect(first).toEqual(toSubnameResponse(stored));
      expect(first).toEqual({
        id: 'id-alice',
        fullName: 'alice.oak.eth',
        parentName: 'oak.eth',
        label: 'alice',
        texts: {},
        addresses: { eth: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
        metadata: {},
        namehash: `0x${'0'.repeat(64)}`,
        contenthash: null,
        owner: null,
        ttl: null,
        createdAt: '2026-11-22T10:00:00.000Z',
        updatedAt: '2026-11-22T10:00:00.000Z',
      });
      for (let i = 0; i < 2; i++) {
        await expect(sut.findOrFail('bob.oak.eth')).rejects.toMatchObject({ code: 'SUBNAME_NOT_FOUND' });
      }
      expect(repository.findByFullName.mock.calls.map((c) => c[1])).toEqual(['alice.oak.eth', 'bob.oak.eth']);
    });

    it('exists, records and GET share one cached entity (or null)', async () => {
      repository.findByFullName.mockImplementation(async (_m: EntityManager, name: string) =>
        name === 'alice.oak.eth' ? entity(name) : null,
      );
      expect(await sut.exists('alice.oak.eth')).toBe(true);
      expect(await sut.records('alice.oak.eth')).toMatchObject({ addresses: { '60': expect.any(String) } });
      await sut.findOrFail('alice.oak.eth');
      expect(await sut.exists('bob.oak.eth')).toBe(false);
      expect(await sut.records('bob.oak.eth')).toBeNull();
      expect(repository.findByFullName).toHaveBeenCalledTimes(2);
    });

    it('exists answers false without a read when the name filter says absent, and reads through on a maybe', async () => {
      repository.findByFullName.mockImplementation(async (_m: EntityManager, name: string) =>
        name === 'alice.oak.eth' ? entity(name) : null,
      );
      const absent = jest.spyOn(cache, 'absent').mockImplementation((name) => name === 'bob.oak.eth');
      expect(await sut.exists('bob.oak.eth')).toBe(false);
      expect(repository.findByFullName).not.toHaveBeenCalled();
      expect(await sut.exists('alice.oak.eth')).toBe(true);
      expect(await sut.exists('carol.oak.eth')).toBe(false);
      expect(repository.findByFullName.mock.calls.map((c) => c[1])).toEqual(['alice.oak.eth', 'carol.oak.eth']);
      expect(absent.mock.calls.map((c) => c[0])).toEqual(['bob.oak.eth', 'alice.oak.eth', 'carol.oak.eth']);
    });

    /** Caches `alice.oak.eth` as stored before the write, and answers `after` from then on. */
    const storedThenChanged = async (after: SubnameEntity | null) => {
      repository.findByFullName.mockResolvedValue(entity('alice.oak.eth'));
      expect((await sut.findOrFail('alice.oak.eth')).owner).toBeNull();
      repository.findByFullName.mockResolvedValue(after);
    };
    const owned = () => Object.assign(entity('alice.oak.eth'), { owner: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' });

    it('an upsert evicts its name right after the commit: the next read sees the write', async () => {
      await storedThenChanged(owned());
      // The repository commits the update in a transaction of its own.
      repository.write.mockImplementation(async () => {
        events.push('commit');
        return { entity: owned(), created: false, previous: entity('alice.oak.eth'), quota: { limit: 10, used: 1 } };
      });
      const dto = (await pipe.transform(
        { parentName: 'oak.eth', label: 'alice', owner: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' },
        { type: 'body', metatype: CreateSubnameDto },
      )) as CreateSubnameDto;
      await sut.upsert(KEY, dto, BY);
      expect(events).toEqual(['commit', 'evict alice.oak.eth']);
      expect((await sut.findOrFail('alice.oak.eth')).owner).toBe('0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359');
      expect(await sut.exists('alice.oak.eth')).toBe(true);
    });

    it('a delete evicts its name right after the commit: the next read is a 404, and exists says false', async () => {
      await storedThenChanged(null);
      repository.deleteByFullName.mockResolvedValue(entity('alice.oak.eth'));
      await sut.remove(KEY, 'alice.oak.eth', BY);
      expect(events).toEqual(['commit', 'evict alice.oak.eth']);
      await expect(sut.findOrFail('alice.oak.eth')).rejects.toMatchObject({ code: 'SUBNAME_NOT_FOUND' });
      expect(await sut.exists('alice.oak.eth')).toBe(false);
    });

    it('a write that does not commit evicts nothing (the cached entity is still the stored one)', async () => {
      await storedThenChanged(owned());
      repository.deleteByFullName.mockRejectedValue(new Error('connection lost'));
      await expect(sut.remove(KEY, 'alice.oak.eth', BY)).rejects.toThrow('connection lost');
      repository.deleteByFullName.mockResolvedValue(null);
      await expect(sut.remove(KEY, 'alice.oak.eth', BY)).rejects.toMatchObject({ code: 'SUBNAME_NOT_FOUND' });
      expect(events).toEqual([]);
      expect((await sut.findOrFail('alice.oak.eth')).owner).toBeNull();
    });
  });
});
