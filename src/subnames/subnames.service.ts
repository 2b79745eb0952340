import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthenticatedKey } from '../auth/api-key';
import { ApiKeysService } from '../auth/api-keys.service';
import { changedFields } from '../audit/audit-diff';
import { AuditService } from '../audit/audit.service';
import type { Actor, AuditEvent, AuditFields } from '../audit/audit.types';
import { nameHash } from '../common/ens';
import { QuotaService, QuotaView } from '../quota/quota.service';
import { CreateSubnameDto } from './dto/create-subname.dto';
import { SearchSubnamesDto } from './dto/search-subnames.dto';
import { SubnamePageResponse, toSubnamePage } from './dto/subname-page.response';
import { SubnameResponse, toSubnameResponse } from './dto/subname.response';
import { toSubnameFilter } from './search-filter';
import { RecordMap, SubnameEntity } from './subname.entity';
import { SubnameNotFoundError } from './subnames.errors';
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

/**
 * The stored form of a create-or-update body. The pipe has already normalised and canonicalised every value
 * (label, parent, addresses, owner, contenthash), so this only arranges them: nothing is normalised twice.
 */
export function toSubnameWrite(createdBy: string, dto: CreateSubnameDto): SubnameWrite {
  const fullName = `${dto.label}.${dto.parentName}`;
  return {
    fullName,
    parentName: dto.parentName,
    label: dto.label,
    namehash: nameHash(fullName),
    createdBy,
    texts: toMap(
      dto.texts,
      (t) => t.key,
      (t) => t.value,
    ),
    addresses: toMap(
      dto.addresses,
      (a) => String(a.coin),
      (a) => a.value,
    ),
    metadata: toMap(
      dto.metadata,
      (m) => m.key,
      (m) => m.value,
    ),
    owner: dto.owner,
    contenthash: dto.contenthash,
    ttl: dto.ttl,
  };
}

/** What the audit trail records of a subname: its records (the name itself is the event's subject). */
function auditedSubname(e: SubnameEntity): AuditFields {
  return {
    texts: e.texts,
    addresses: e.addresses,
    metadata: e.metadata,
    contenthash: e.contenthash,
    owner: e.owner,
    ttl: e.ttl,
  };
}

/** The event of an upsert: a creation with every record, or an update with the records it changed. */
export function subnameWriteEvent(by: Actor, entity: SubnameEntity, previous: SubnameEntity | null): AuditEvent {
  return previous
    ? {
        by,
        action: 'subname.update',
        subject: entity.fullName,
        ...changedFields(auditedSubname(previous), auditedSubname(entity)),
      }
    : { by, action: 'subname.create', subject: entity.fullName, before: null, after: auditedSubname(entity) };
}

@Injectable()
export class SubnamesService {
  constructor(
    private readonly subnames: SubnamesRepository,
    private readonly keys: ApiKeysService,
    private readonly quota: QuotaService,
    private readonly audit: AuditService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * Create-or-update keyed by fullName; a creation charges the key's quota in the same transaction as the
   * write and its audit event, so a refused charge leaves neither.
   */
  async upsert(key: AuthenticatedKey, dto: CreateSubnameDto, by: Actor): Promise<WriteResult> {
    this.keys.authorize(key, dto.parentName);
    const write = toSubnameWrite(key.id, dto);
    return this.dataSource.transaction(async (manager) => {
      const { entity, inserted, previous } = await this.subnames.upsert(manager, write);
      await this.audit.record(manager, subnameWriteEvent(by, entity, previous));
      const quota = inserted ? await this.quota.charge(manager, key.id) : await this.quota.view(manager, key.id);
      return { subname: toSubnameResponse(entity), created: inserted, quota };
    });
  }

  /** `fullName` comes normalised from the path DTO. */
  async findOrFail(fullName: string): Promise<SubnameResponse> {
    const entity = await this.subnames.findByFullName(this.dataSource.manager, fullName);
    if (!entity) throw new SubnameNotFoundError(fullName);
    return toSubnameResponse(entity);
  }

  /** Whether an offchain subname of this normalised full name exists (the mint refuses to sign one). */
  exists(fullName: string): Promise<boolean> {
    return this.subnames.existsByFullName(this.dataSource.manager, fullName);
  }

  /** Search and list: both routes land here. Stable order (creation time, then id), so pages never overlap. */
  async search(dto: SearchSubnamesDto): Promise<SubnamePageResponse> {
    const { items, totalItems } = await this.subnames.searchPage(this.dataSource.manager, toSubnameFilter(dto), {
      limit: dto.size,
      offset: (dto.page - 1) * dto.size,
    });
    return toSubnamePage(items, dto.page, dto.size, totalItems);
  }

  /** Deletes a subname the key may write; the quota unit its creation took is not given back. */
  async remove(key: AuthenticatedKey, fullName: string, by: Actor): Promise<void> {
    this.keys.authorize(key, fullName.slice(fullName.indexOf('.') + 1));
    await this.dataSource.transaction(async (manager) => {
      const deleted = await this.subnames.deleteByFullName(manager, fullName);
      if (!deleted) throw new SubnameNotFoundError(fullName);
      const before = auditedSubname(deleted);
      await this.audit.record(manager, { by, action: 'subname.delete', subject: fullName, before, after: null });
    });
  }
}
