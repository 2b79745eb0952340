import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthenticatedKey } from '../auth/api-key';
import { ForbiddenParentError } from '../auth/auth.errors';
import { ApiKeysService, keyCovers } from '../auth/api-keys.service';
import { changedFields } from '../audit/audit-diff';
import { AuditService } from '../audit/audit.service';
import type { Actor, AuditEvent, AuditFields } from '../audit/audit.types';
import { isSameOrUnder, nameHash } from '../common/ens/names';
import { FieldError } from '../common/errors';
import { SearchTimeoutError } from '../common/errors';
import { isStatementTimeout } from '../common/persistence/database-errors';
import { AppConfig } from '../config/app-config';
import { QuotaService, QuotaView, toQuotaView } from '../quota/quota.service';
import { BatchResponse, BatchSubnamesDto } from './dto/batch-subnames.dto';
import { CreateSubnameDto } from './dto/create-subname.dto';
import { ExportSubnamesQueryDto, toSubnameExportLine } from './dto/export-subnames.dto';
import { SearchSubnamesDto } from './dto/search-subnames.dto';
import { SubnamePageResponse, toSubnamePage } from './dto/subname-page.response';
import { SubnameResponse, toSubnameResponse } from './dto/subname.response';
import { toSubnameFilter } from './search-filter';
import { SubnameCache } from './subname-cache';
import { RecordMap, SubnameEntity } from './subname.entity';
import { SubnameNotFoundError } from './subnames.errors';
import { ExportSlots } from './export-slots';
import { QUOTA_REFUSED_SQLSTATE, SubnamesRepository, SubnameWrite } from './subnames.repository';

/** What resolution reads of a stored subname: addresses by decimal coin type, contenthash as its URI. Read-only. */
export interface SubnameRecords {
  texts: Readonly<RecordMap>;
  addresses: Readonly<RecordMap>;
  contenthash: string | null;
  ttl: number | null;
}

export interface WriteResult {
  subname: SubnameResponse;
  created: boolean;
  quota: QuotaView;
}

export interface BatchWriteResult {
  body: BatchResponse;
  quota: QuotaView;
}

/** Rows per export query: large enough to amortise a round trip, small enough to keep memory flat. */
export const EXPORT_PAGE_SIZE = 1000;
/** Pieces written to the socket: below V8's large-object size, so they die young instead of waiting for a full GC. */
const EXPORT_CHUNK_CHARS = 32 * 1024;

/** 403 naming every (normalised) parent name that the key does not cover, by the field it came from. */
function refuseOutsideScope(key: AuthenticatedKey, parents: { field: string; name: string }[]): void {
  const outside = parents.filter((p) => !keyCovers(key, p.name));
  if (outside.length === 0) return;
  const errors: FieldError[] = outside.map((p) => ({
    field: p.field,
    message: `${p.name} lies outside this API key's scope`,
  }));
  throw new ForbiddenParentError([...new Set(outside.map((p) => p.name))].join(', '), errors);
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

/**
 * The event of an upsert: a creation with every record, or an update with the records it changed (with every
 * record when the row as it was is unknown: a batch item whose name another writer created meanwhile).
 */
export function subnameWriteEvent(
  by: Actor,
  entity: SubnameEntity,
  previous: SubnameEntity | null,
  inserted = previous === null,
): AuditEvent {
  const subject = entity.fullName;
  if (inserted) return { by, action: 'subname.create', subject, before: null, after: auditedSubname(entity) };
  if (!previous) return { by, action: 'subname.update', subject, before: null, after: auditedSubname(entity) };
  return { by, action: 'subname.update', subject, ...changedFields(auditedSubname(previous), auditedSubname(entity)) };
}

@Injectable()
export class SubnamesService {
  /** The answer of GET /subnames/{fullName} for each cached entity, mapped once (entities are immutable). */
  private readonly responses = new WeakMap<SubnameEntity, SubnameResponse>();
  private readonly exports = new ExportSlots();

  constructor(
    private readonly subnames: SubnamesRepository,
    private readonly keys: ApiKeysService,
    private readonly quota: QuotaService,
    private readonly audit: AuditService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cache: SubnameCache,
    private readonly config: AppConfig,
  ) {}

  /**
   * Create-or-update keyed by fullName; a creation charges the key's quota in the same transaction as the
   * write and its audit event, so a refused charge leaves neither.
   */
  async upsert(key: AuthenticatedKey, dto: CreateSubnameDto, by: Actor): Promise<WriteResult> {
    this.keys.authorize(key, dto.parentName);
    const write = toSubnameWrite(key.id, dto);
    // Most writes create: one statement creates, records and charges. A name that exists is updated below.
    const created = await this.createCharged(write, by);
    if (created) {
      this.cache.written([write.fullName]);
      return { subname: toSubnameResponse(created.entity), created: true, quota: toQuotaView(created.quota) };
    }
    const result = await this.dataSource.transaction(async (manager) => {
      const { entity, inserted, previous } = await this.subnames.upsert(manager, write, true);
      await this.audit.record(manager, subnameWriteEvent(by, entity, previous));
      const quota = inserted ? await this.quota.charge(manager, key.id) : await this.quota.view(manager, key.id);
      return { subname: toSubnameResponse(entity), created: inserted, quota };
    });
    this.cache.written([write.fullName]);
    return result;
  }

  private async createCharged(write: SubnameWrite, by: Actor) {
    try {
      return await this.subnames.createCharged(this.dataSource.manager, write, by);
    } catch (e) {
      const code = (e as { driverError?: { code?: unknown } }).driverError?.code;
      if (code === QUOTA_REFUSED_SQLSTATE) throw await this.quota.refusal(this.dataSource.manager, write.createdBy);
      throw e;
    }
  }

  /**
   * Many create-or-updates, all or nothing, in one transaction of three statements: one upsert of every item
   * (which also hands back the rows as they were, for the audit trail), one insert of their audit events, then
   * one quota charge for the items that created a name. A refusal (scope, quota) writes nothing.
   */
  async upsertMany(key: AuthenticatedKey, dto: BatchSubnamesDto, by: Actor): Promise<BatchWriteResult> {
    refuseOutsideScope(
      key,
      dto.items.map((item, i) => ({ field: `items[${i}].parentName`, name: item.parentName })),
    );
    const writes = dto.items.map((item) => toSubnameWrite(key.id, item));
    const result = await this.dataSource.transaction(async (manager) => {
      const results = await this.subnames.upsertMany(manager, writes);
      await this.audit.recordMany(
        manager,
        results.map(({ entity, inserted, previous }) => subnameWriteEvent(by, entity, previous, inserted)),
      );
      const created = results.filter((r) => r.inserted).length;
      const quota =
        created > 0 ? await this.quota.charge(manager, key.id, created) : await this.quota.view(manager, key.id);
      const items = results.map(({ entity, inserted }) => ({
        fullName: entity.fullName,
        status: inserted ? ('created' as const) : ('updated' as const),
        subname: toSubnameResponse(entity),
      }));
      return { body: { created, updated: results.length - created, items }, quota };
    });
    this.cache.written(writes.map((w) => w.fullName));
    return result;
  }

  /**
   * The NDJSON lines of every subname under the given parents at any depth, in pieces of about 32 KB, read in
   * pages with a keyset cursor (the next page only when the consumer asks for more). The scope is checked here, before anything is read; a parent under another given parent is
   * dropped, so no name comes twice.
   */
  exportLines(key: AuthenticatedKey, query: ExportSubnamesQueryDto): AsyncIterable<string> {
    const given = query.parentName;
    refuseOutsideScope(
      key,
      given.map((name, i) => ({ field: `parentName[${i}]`, name })),
    );
    const parents = given.filter((p) => !given.some((o) => o !== p && isSameOrUnder(p, o)));
    return this.exportPages(parents, this.exports.acquire(key.id));
  }

  /** `release` gives the key's export slot back however the stream ends (finished, failed, or the client gone). */
  private async *exportPages(parents: string[], release: () => void): AsyncGenerator<string> {
    try {
      yield* this.pagesOf(parents);
    } finally {
      release();
    }
  }

  private async *pagesOf(parents: string[]): AsyncGenerator<string> {
    for (const parent of parents) {
      let cursor: string | null = null;
      for (;;) {
        const page = await this.subnames.exportPage(this.dataSource.manager, parent, cursor, EXPORT_PAGE_SIZE);
        if (page.items.length === 0) break;
        let chunk = '';
        for (const e of page.items) {
          chunk += `${JSON.stringify(toSubnameExportLine(e))}\n`;
          if (chunk.length >= EXPORT_CHUNK_CHARS) {
            yield chunk;
            chunk = '';
          }
        }
        if (chunk !== '') yield chunk;
        if (page.items.length < EXPORT_PAGE_SIZE) break;
        cursor = page.cursor;
      }
    }
  }

  /** `fullName` comes normalised from the path DTO. Through the subname cache, like resolution. */
  async findOrFail(fullName: string): Promise<SubnameResponse> {
    const entity = await this.find(fullName);
    if (!entity) throw new SubnameNotFoundError(fullName);
    // Cached entities are shared and never modified, so neither is the answer mapped from one.
    let response = this.responses.get(entity);
    if (!response) {
      response = toSubnameResponse(entity);
      this.responses.set(entity, response);
    }
    return response;
  }

  /** The records of a stored subname by its normalised full name, or null when none is stored. */
  async records(fullName: string): Promise<SubnameRecords | null> {
    const entity = await this.find(fullName);
    if (!entity) return null;
    const { texts, addresses, contenthash, ttl } = entity;
    return { texts, addresses, contenthash, ttl };
  }

  /** Whether an offchain subname of this normalised full name exists (the mint refuses to sign one). */
  async exists(fullName: string): Promise<boolean> {
    if (this.cache.absent(fullName)) return false;
    return (await this.find(fullName)) !== null;
  }

  /**
   * The stored subname (shared: not to be modified), through the subname cache: a write here is seen at once by
   * this process, and within a second by every replica (CONTRACT section 9).
   */
  private find(fullName: string): Promise<SubnameEntity | null> {
    return this.cache.get(fullName, () => this.subnames.findByFullName(this.dataSource.manager, fullName));
  }

  /** Search and list: both routes land here. Stable order (creation time, then id), so pages never overlap. */
  async search(dto: SearchSubnamesDto): Promise<SubnamePageResponse> {
    const window = { limit: dto.size, offset: (dto.page - 1) * dto.size };
    const timeoutMs = this.config.searchStatementTimeoutMs;
    try {
      const { items, totalItems } = await this.dataSource.transaction((manager) =>
        this.subnames.searchPage(manager, toSubnameFilter(dto), window, timeoutMs),
      );
      return toSubnamePage(items, dto.page, dto.size, totalItems);
    } catch (e) {
      if (isStatementTimeout(e)) throw new SearchTimeoutError(timeoutMs);
      throw e;
    }
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
    this.cache.written([fullName]);
  }
}
