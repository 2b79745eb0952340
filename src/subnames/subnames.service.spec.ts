import type { DataSource } from 'typeorm';
import type { AuthenticatedKey } from '../auth/api-key';
import { ApiKeysService } from '../auth/api-keys.service';
import { DomainError, NotFoundError, SearchTimeoutError, ValidationFailedError } from '../common/errors';
import { loadConfig } from '../config/app-config';
import type { QuotaService } from '../quota/quota.service';
import { SearchSubnamesDto } from './dto/search-subnames.dto';
import { SubnameEntity } from './subname.entity';
import type { SubnamesRepository } from './subnames.repository';
import { SubnamesService } from './subnames.service';

const KEY: AuthenticatedKey = { id: 'k1', keyPrefix: 'sns_abcdefgh', parentNames: ['oak.eth'] };

function entity(fullName: string): SubnameEntity {
  const [label, ...parent] = fullName.split('.');
  return Object.assign(new SubnameEntity(), {
    id: `id-${label}`,
    fullName,
    parentName: parent.join('.'),
    label,
    namehash: `0x${'0'.repeat(64)}`,
    texts: {},
    addresses: { '60': '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
    metadata: {},
    contenthash: null,
    owner: null,
    ttl: null,
    createdBy: KEY.id,
    createdAt: new Date('2026-11-22T10:00:00Z'),
    updatedAt: new Date('2026-11-22T10:00:00Z'),
  });
}

describe(SubnamesService.name, () => {
  let repository: { searchPage: jest.Mock; deleteByFullName: jest.Mock };
  let sut: SubnamesService;

  beforeEach(() => {
    repository = { searchPage: jest.fn(), deleteByFullName: jest.fn() };
    // authorize() is pure: the real one, without its collaborators.
    const keys = Object.create(ApiKeysService.prototype) as ApiKeysService;
    sut = new SubnamesService(
      repository as unknown as SubnamesRepository,
      keys,
      {} as QuotaService,
      {} as DataSource,
      loadConfig({ SEARCH_STATEMENT_TIMEOUT_MS: '150' }),
    );
  });

  describe('search', () => {
    it('turns page and size into a window and maps the rows to Subnames', async () => {
      repository.searchPage.mockResolvedValue({ items: [entity('alice.oak.eth')], totalItems: 15 });
      const dto = Object.assign(new SearchSubnamesDto(), { parentName: 'OAK.eth', page: 3, size: 7 });
      const page = await sut.search(dto);
      expect(repository.searchPage).toHaveBeenCalledWith({ parentNames: ['oak.eth'] }, { limit: 7, offset: 14 }, 150);
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

  describe('remove', () => {
    it('deletes the normalised name', async () => {
      repository.deleteByFullName.mockResolvedValue(true);
      await sut.remove(KEY, 'Alice.OAK.eth');
      expect(repository.deleteByFullName).toHaveBeenCalledWith('alice.oak.eth');
    });

    it('404 SUBNAME_NOT_FOUND when nothing was deleted', async () => {
      repository.deleteByFullName.mockResolvedValue(false);
      await expect(sut.remove(KEY, 'bob.oak.eth')).rejects.toMatchObject({
        constructor: NotFoundError,
        code: 'SUBNAME_NOT_FOUND',
      });
    });

    it('checks the scope before touching the database, so existence does not leak', async () => {
      const error = await sut.remove(KEY, 'bob.oakk.eth').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('FORBIDDEN_PARENT');
      expect(repository.deleteByFullName).not.toHaveBeenCalled();
    });

    it('400 naming fullName for a name that is not a subname', async () => {
      const error = await sut.remove(KEY, 'oak.eth').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationFailedError);
      expect((error as ValidationFailedError).errors).toEqual([{ field: 'fullName', message: expect.any(String) }]);
      expect(repository.deleteByFullName).not.toHaveBeenCalled();
    });
  });
});
