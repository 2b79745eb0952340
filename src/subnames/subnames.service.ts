import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { getAddress } from 'ethers';
import { DataSource } from 'typeorm';
import type { AuthenticatedKey } from '../auth/api-key';
import { ApiKeysService } from '../auth/api-keys.service';
import { nameHash, NameError, normalizeLabel, normalizeName } from '../common/ens';
import { NotFoundError, SearchTimeoutError, ValidationFailedError } from '../common/errors';
import { AppConfig } from '../config/app-config';
import { isStatementTimeout } from '../database/database-errors';
import { canonicalAddress, canonicalContenthash } from '../common/records';
import { QuotaService, QuotaView } from '../quota/quota.service';
import { CreateSubnameDto } from './dto/create-subname.dto';
import { SearchSubnamesDto } from './dto/search-subnames.dto';
import { SubnamePageResponse, toSubnamePage } from './dto/subname-page.response';
import { SubnameResponse, toSubnameResponse } from './dto/subname.response';
import { toSubnameFilter } from './search-filter';
import { RecordMap } from './subname.entity';
import { SubnamesRepository, SubnameWrite } from './subnames.repository';

export interface WriteResult {
  subname: SubnameResponse;
  created: boolean;
  quota: QuotaView;
}

function toMap<T>(entries: T[] | undefined, key: (e: T) => string, value: (e: T) => string): RecordMap | undefined {
  if (entries === undefined) return undefined;
  return Object.fromEntries(entries.map((e) => [key(e), value(e)]));
}

/** Normalises a full name from a path; a subname has at least three labels. */
export function normalizeFullName(raw: string, field = 'fullName'): string {
  try {
    return normalizeName(raw, 3);
  } catch (e) {
    if (e instanceof NameError) throw new ValidationFailedError([{ field, message: e.message }]);
    throw e;
  }
}

@Injectable()
export class SubnamesService {
  constructor(
    private readonly subnames: SubnamesRepository,
    private readonly keys: ApiKeysService,
    private readonly quota: QuotaService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  /** Create-or-update keyed by fullName; a creation charges the key's quota in the same transaction. */
  async upsert(key: AuthenticatedKey, dto: CreateSubnameDto): Promise<WriteResult> {
    const write = this.toWrite(key, dto);
    this.keys.authorize(key, write.parentName);
    return this.dataSource.transaction(async (manager) => {
      const { entity, inserted } = await this.subnames.upsert(manager, write);
      const quota = inserted ? await this.quota.charge(manager, key.id) : await this.quota.view(key.id, manager);
      return { subname: toSubnameResponse(entity), created: inserted, quota };
    });
  }

  async findOrFail(rawFullName: string): Promise<SubnameResponse> {
    const fullName = normalizeFullName(rawFullName);
    const entity = await this.subnames.findByFullName(fullName);
    if (!entity) throw new NotFoundError('SUBNAME_NOT_FOUND', `No subname ${fullName}`);
    return toSubnameResponse(entity);
  }

  /** Whether an offchain subname of this normalised full name exists (the mint refuses to sign one). */
  exists(fullName: string): Promise<boolean> {
    return this.subnames.existsByFullName(fullName);
  }

  /** Search and list: both routes land here. Stable order (creation time, then id), so pages never overlap. */
  async search(dto: SearchSubnamesDto): Promise<SubnamePageResponse> {
    const window = { limit: dto.size, offset: (dto.page - 1) * dto.size };
    const timeoutMs = this.config.searchStatementTimeoutMs;
    try {
      const { items, totalItems } = await this.subnames.searchPage(toSubnameFilter(dto), window, timeoutMs);
      return toSubnamePage(items, dto.page, dto.size, totalItems);
    } catch (e) {
      if (isStatementTimeout(e)) throw new SearchTimeoutError(timeoutMs);
      throw e;
    }
  }

  /** Deletes a subname the key may write; the quota unit its creation took is not given back. */
  async remove(key: AuthenticatedKey, rawFullName: string): Promise<void> {
    const fullName = normalizeFullName(rawFullName);
    this.keys.authorize(key, fullName.slice(fullName.indexOf('.') + 1));
    if (!(await this.subnames.deleteByFullName(fullName))) {
      throw new NotFoundError('SUBNAME_NOT_FOUND', `No subname ${fullName}`);
    }
  }

  /** The DTO has been validated; this derives the canonical stored forms. */
  private toWrite(key: AuthenticatedKey, dto: CreateSubnameDto): SubnameWrite {
    const parentName = normalizeName(dto.parentName);
    const label = normalizeLabel(dto.label);
    const fullName = `${label}.${parentName}`;
    return {
      fullName,
      parentName,
      label,
      namehash: nameHash(fullName),
      createdBy: key.id,
      texts: toMap(
        dto.texts,
        (t) => t.key,
        (t) => t.value,
      ),
      addresses: toMap(
        dto.addresses,
        (a) => String(a.coin),
        (a) => canonicalAddress(a.coin, a.value),
      ),
      metadata: toMap(
        dto.metadata,
        (m) => m.key,
        (m) => m.value,
      ),
      owner: dto.owner === undefined || dto.owner === null ? dto.owner : getAddress(dto.owner),
      contenthash:
        dto.contenthash === undefined || dto.contenthash === null
          ? dto.contenthash
          : canonicalContenthash(dto.contenthash),
      ttl: dto.ttl,
    };
  }
}
