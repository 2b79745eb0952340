import type { DataSource, EntityManager } from 'typeorm';
import type { AuditService } from '../audit/audit.service';
import type { Actor } from '../audit/audit.types';
import { ChangeFeed } from '../cache/change-feed';
import { loadConfig } from '../config/app-config';
import type { PutListingDto } from './dto/listing.dto';
import { ListingCache, listingChars, listingKey } from './listing-cache';
import { ListingEntity } from './listing.entity';
import type { ListingsRepository } from './listings.repository';
import { ListingsService } from './listings.service';

const MANAGER = {} as EntityManager;
const BY: Actor = { actor: 'admin', requestId: 'req-1' };
const RECEIVER = '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB';

function listing(over: Partial<ListingEntity> = {}): ListingEntity {
  return Object.assign(new ListingEntity(), {
    id: 'l1',
    network: 'mainnet',
    parentName: 'oak.eth',
    price: '5000',
    lengthPrices: {},
    fee: '100',
    paymentReceiver: RECEIVER,
    expirable: false,
    fuses: 0,
    reservedLabels: [],
    active: true,
    createdAt: new Date('2026-11-22T10:00:00Z'),
    updatedAt: new Date('2026-11-22T10:00:00Z'),
    ...over,
  });
}

const PUT: PutListingDto = { price: '7000', fee: '100', paymentReceiver: RECEIVER, expirable: false, fuses: 0 };

describe(ListingsService.name, () => {
  let repository: { findOne: jest.Mock; upsert: jest.Mock; delete: jest.Mock };
  /** Commits and evictions, in order. */
  let events: string[];
  let sut: ListingsService;

  beforeEach(() => {
    events = [];
    repository = { findOne: jest.fn(), upsert: jest.fn(), delete: jest.fn() };
    const dataSource = {
      manager: MANAGER,
      transaction: async (work: (m: EntityManager) => Promise<unknown>) => {
        const result = await work(MANAGER);
        events.push('commit');
        return result;
      },
    } as unknown as DataSource;
    // The real cache and feed (never started: no connection), to see what a change evicts and when.
    const cache = new ListingCache(new ChangeFeed(loadConfig({}), dataSource));
    const evict = cache.evict.bind(cache);
    jest.spyOn(cache, 'evict').mockImplementation((key: string) => {
      events.push(`evict ${key}`);
      evict(key);
    });
    const audit = { record: jest.fn(async () => undefined) } as unknown as AuditService;
    sut = new ListingsService(repository as unknown as ListingsRepository, audit, dataSource, cache);
  });

  it('the mint reads a listing once, by network and parent name; absent and inactive listings are cached too', async () => {
    repository.findOne.mockImplementation(async (_m: EntityManager, network: string, parent: string) => {
      if (parent === 'oak.eth') return listing({ network: network as 'mainnet' });
      if (parent === 'ash.eth') return listing({ parentName: 'ash.eth', active: false });
      return null;
    });
    for (let i = 0; i < 3; i++) {
      expect(await sut.findActive('mainnet', 'oak.eth')).toMatchObject({ network: 'mainnet', price: '5000' });
      expect(await sut.findActive('testnet', 'oak.eth')).toMatchObject({ network: 'testnet' });
      expect(await sut.findActive('mainnet', 'ash.eth')).toBeNull();
      expect(await sut.findActive('mainnet', 'none.eth')).toBeNull();
    }
    expect(repository.findOne.mock.calls.map((c) => `${c[1]}/${c[2]}`)).toEqual([
      'mainnet/oak.eth',
      'testnet/oak.eth',
      'mainnet/ash.eth',
      'mainnet/none.eth',
    ]);
  });

  it('a PUT evicts its listing right after the commit: the next mint lookup sees the new price', async () => {
    repository.findOne.mockResolvedValue(listing());
    expect((await sut.findActive('mainnet', 'oak.eth'))?.price).toBe('5000');
    repository.findOne.mockResolvedValue(listing({ price: '7000' }));
    repository.upsert.mockResolvedValue({ entity: listing({ price: '7000' }), previous: listing() });
    await sut.put('mainnet', 'oak.eth', PUT, BY);
    expect(events).toEqual(['commit', 'evict mainnet/oak.eth']);
    expect((await sut.findActive('mainnet', 'oak.eth'))?.price).toBe('7000');
  });

  it('a PUT that makes a cached absence a listing is seen at once, and so is active: false', async () => {
    repository.findOne.mockResolvedValue(null);
    expect(await sut.findActive('testnet', 'pine.eth')).toBeNull();
    const pine = listing({ network: 'testnet', parentName: 'pine.eth' });
    repository.findOne.mockResolvedValue(pine);
    repository.upsert.mockResolvedValue({ entity: pine, previous: null });
    await sut.put('testnet', 'pine.eth', PUT, BY);
    expect(await sut.findActive('testnet', 'pine.eth')).toBe(pine);
    const inactive = listing({ network: 'testnet', parentName: 'pine.eth', active: false });
    repository.findOne.mockResolvedValue(inactive);
    repository.upsert.mockResolvedValue({ entity: inactive, previous: pine });
    await sut.put('testnet', 'pine.eth', { ...PUT, active: false }, BY);
    expect(await sut.findActive('testnet', 'pine.eth')).toBeNull();
  });

  it('a delete evicts right after the commit; a refused one evicts nothing', async () => {
    repository.findOne.mockResolvedValue(listing());
    await sut.findActive('mainnet', 'oak.eth');
    repository.findOne.mockResolvedValue(null);
    repository.delete.mockResolvedValue(null);
    await expect(sut.remove('mainnet', 'oak.eth', BY)).rejects.toMatchObject({ code: 'LISTING_NOT_FOUND' });
    expect(events).toEqual([]);
    expect(await sut.findActive('mainnet', 'oak.eth')).not.toBeNull();
    repository.delete.mockResolvedValue(listing());
    await sut.remove('mainnet', 'oak.eth', BY);
    expect(events).toEqual(['commit', 'evict mainnet/oak.eth']);
    expect(await sut.findActive('mainnet', 'oak.eth')).toBeNull();
  });

  it("the administrator's read goes to the database every time", async () => {
    repository.findOne.mockResolvedValue(listing());
    await sut.findOrFail('mainnet', 'oak.eth');
    await sut.findOrFail('mainnet', 'oak.eth');
    expect(repository.findOne).toHaveBeenCalledTimes(2);
  });
});

describe('listing cache keys and sizes', () => {
  it("keys a listing as the trigger spells it (network || '/' || parent_name)", () => {
    expect(listingKey('mainnet', 'oak.eth')).toBe('mainnet/oak.eth');
    expect(listingKey('testnet', 'a.b.eth')).toBe('testnet/a.b.eth');
  });

  it('sizes a listing by its reserved labels and length prices', () => {
    const base = listingChars(listing());
    expect(listingChars(listing({ reservedLabels: ['x'.repeat(1000)] })) - base).toBeGreaterThanOrEqual(1000);
    expect(listingChars(listing({ lengthPrices: { '3': '9'.repeat(500) } })) - base).toBeGreaterThanOrEqual(501);
    expect(listingChars(null)).toBeGreaterThan(0);
  });
});
