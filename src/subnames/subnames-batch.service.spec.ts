import { ExportPreambles } from './export-preambles';
import type { DataSource, EntityManager } from 'typeorm';
import { ApiKeysService } from '../auth/api-keys.service';
import type { AuditService } from '../audit/audit.service';
import { ChangeFeed } from '../cache/change-feed';
import { ReadRouter } from '../reads/read-router';
import { ReadsRepository } from '../reads/reads.repository';
import * as ens from '../common/ens/names';
import { DomainError } from '../common/errors';
import { AppValidationPipe } from '../common/validation/validation.pipe';
import { loadConfig } from '../config/app-config';
import type { QuotaService } from '../quota/quota.service';
import { BatchSubnamesDto } from './dto/batch-subnames.dto';
import { SubnameCache } from './subname-cache';
import type { SubnameWrite } from './subname-row';
import { SubnamesBatchService } from './subnames-batch.service';
import type { SubnamesRepository } from './subnames.repository';
import { SubnamesService } from './subnames.service';

import { BY, entity, KEY, MANAGER } from '../../test/support/subname-fixtures';

const pipe = new AppValidationPipe();
describe(SubnamesBatchService.name, () => {
  let repository: { findByFullName: jest.Mock; upsertMany: jest.Mock };
  let quota: { charge: jest.Mock; view: jest.Mock };
  let audit: { record: jest.Mock; recordMany: jest.Mock };
  /** Commits and evictions, in order. */
  let events: string[];
  let sut: SubnamesBatchService;
  /** The single-name service on the same cache, to read what a batch evicted. */
  let reads: SubnamesService;

  beforeEach(() => {
    repository = { findByFullName: jest.fn(), upsertMany: jest.fn() };
    quota = {
      charge: jest.fn(async () => ({ limit: 10, used: 1, remaining: 9 })),
      view: jest.fn(async () => ({ limit: 10, used: 4, remaining: 6 })),
    };
    audit = { record: jest.fn(async () => undefined), recordMany: jest.fn(async () => undefined) };
    events = [];
    const dataSource = {
      manager: MANAGER,
      transaction: async (work: (m: EntityManager) => Promise<unknown>) => {
        const result = await work(MANAGER);
        events.push('commit');
        return result;
      },
    } as unknown as DataSource;
    const config = loadConfig({});
    // The real cache and feed (never started: no connection), to see what a write evicts and when.
    const feed = new ChangeFeed(config, dataSource);
    const cache = new SubnameCache(feed, repository as unknown as SubnamesRepository, dataSource);
    const evict = cache.evict.bind(cache);
    jest.spyOn(cache, 'evict').mockImplementation((name: string) => {
      events.push(`evict ${name}`);
      evict(name);
    });
    const subnames = repository as unknown as SubnamesRepository;
    sut = new SubnamesBatchService(
      subnames,
      quota as unknown as QuotaService,
      audit as unknown as AuditService,
      dataSource,
      cache,
    );
    const keys = Object.create(ApiKeysService.prototype) as ApiKeysService;
    const quotaService = quota as unknown as QuotaService;
    reads = new SubnamesService(
      subnames,
      keys,
      quotaService,
      audit as unknown as AuditService,
      dataSource,
      cache,
      config,
      new ReadRouter(config, dataSource, feed, new ReadsRepository()),
      new ExportPreambles(),
    );
  });

  afterEach(() => jest.restoreAllMocks());

  const batch = async (items: unknown[]) =>
    (await pipe.transform({ items }, { type: 'body', metatype: BatchSubnamesDto })) as BatchSubnamesDto;

  it('one upsert of every item, then one charge for the creations only', async () => {
    repository.upsertMany.mockImplementation(async (_m: EntityManager, writes: SubnameWrite[]) =>
      writes.map((w, i) => ({ entity: entity(w.fullName), inserted: i !== 1 })),
    );
    const dto = await batch([
      { parentName: 'OAK.eth', label: 'A' },
      { parentName: 'oak.eth', label: 'b', ttl: 5 },
      { parentName: 'team.oak.eth', label: 'c' },
    ]);
    const result = await sut.upsertMany(KEY, dto, BY);
    expect(repository.upsertMany).toHaveBeenCalledTimes(1);
    const writes = repository.upsertMany.mock.calls[0][1] as SubnameWrite[];
    expect(writes.map((w) => [w.fullName, w.namehash])).toEqual(
      ['a.oak.eth', 'b.oak.eth', 'c.team.oak.eth'].map((n) => [n, ens.nameHash(n)]),
    );
    expect(writes[1]).toMatchObject({ ttl: 5, createdBy: KEY.id });
    expect(writes[0].ttl).toBeUndefined();
    expect(quota.charge).toHaveBeenCalledTimes(1);
    expect(quota.charge).toHaveBeenCalledWith(MANAGER, KEY.id, 2);
    expect(result.body).toMatchObject({
      created: 2,
      updated: 1,
      items: [
        { fullName: 'a.oak.eth', status: 'created' },
        { fullName: 'b.oak.eth', status: 'updated' },
        { fullName: 'c.team.oak.eth', status: 'created' },
      ],
    });
    expect(result.quota.remaining).toBe(9);
  });

  it('charges nothing when every item is an update', async () => {
    repository.upsertMany.mockImplementation(async (_m: EntityManager, writes: SubnameWrite[]) =>
      writes.map((w) => ({ entity: entity(w.fullName), inserted: false })),
    );
    const result = await sut.upsertMany(KEY, await batch([{ parentName: 'oak.eth', label: 'a' }]), BY);
    expect(quota.charge).not.toHaveBeenCalled();
    expect(result.quota.remaining).toBe(6);
  });

  it('names every item outside the scope before writing anything', async () => {
    const dto = await batch([
      { parentName: 'pine.eth', label: 'a' },
      { parentName: 'oak.eth', label: 'b' },
      { parentName: 'oakk.eth', label: 'c' },
    ]);
    const error = (await sut.upsertMany(KEY, dto, BY).catch((e: unknown) => e)) as DomainError;
    expect(error.code).toBe('FORBIDDEN_PARENT');
    expect(error.errors).toEqual([
      { field: 'items[0].parentName', message: expect.stringContaining('pine.eth') },
      { field: 'items[2].parentName', message: expect.stringContaining('oakk.eth') },
    ]);
    expect(repository.upsertMany).not.toHaveBeenCalled();
  });

  it('a batch (the import path too) evicts every name right after its one commit', async () => {
    const owned = () => Object.assign(entity('alice.oak.eth'), { owner: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' });
    repository.findByFullName.mockResolvedValue(entity('alice.oak.eth'));
    expect((await reads.findOrFail('alice.oak.eth')).owner).toBeNull();
    repository.findByFullName.mockImplementation(async (_m: EntityManager, name: string) =>
      name === 'alice.oak.eth' ? owned() : entity(name),
    );
    await expect(reads.findOrFail('new.oak.eth')).resolves.toMatchObject({ fullName: 'new.oak.eth' });
    repository.upsertMany.mockImplementation(async (_m: EntityManager, writes: SubnameWrite[]) =>
      writes.map((w) => ({ entity: entity(w.fullName), inserted: false })),
    );
    const dto = (await pipe.transform(
      {
        items: [
          { parentName: 'oak.eth', label: 'alice' },
          { parentName: 'oak.eth', label: 'new' },
        ],
      },
      { type: 'body', metatype: BatchSubnamesDto },
    )) as BatchSubnamesDto;
    await sut.upsertMany(KEY, dto, BY);
    expect(events).toEqual(['commit', 'evict alice.oak.eth', 'evict new.oak.eth']);
    expect((await reads.findOrFail('alice.oak.eth')).owner).toBe('0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359');
  });
});
