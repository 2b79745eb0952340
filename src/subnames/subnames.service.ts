import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AuthenticatedKey } from '../auth/api-key';
import { ApiKeysService } from '../auth/api-keys.service';
import { AuditService } from '../audit/audit.service';
import type { Actor } from '../audit/audit.types';
import { isSameOrUnder } from '../common/ens/names';
import { SearchTimeoutError } from '../common/errors';
import { isStatementTimeout } from '../common/persistence/database-errors';
import { AppConfig } from '../config/app-config';
import { QuotaService, QuotaView, toQuotaView } from '../quota/quota.service';
import { ReadRouter } from '../reads/read-router';
import { CreateSubnameDto } from './dto/create-subname.dto';
import { ExportSubnamesQueryDto, toSubnameExportLine } from './dto/export-subnames.dto';
import { SearchSubnamesDto } from './dto/search-subnames.dto';
import { SubnamePageResponse, toSubnamePage } from './dto/subname-page.response';
import { SubnameResponse, toSubnameResponse } from './dto/subname.response';
import { toSubnameFilter } from './search-filter';
import { auditedSubname } from './subname-audit';
import { SubnameCache } from './subname-cache';
import { ExportPreambles } from './export-preambles';
import { EndedPrimaryName, endedBy, PrimaryNameEndings } from './primary-name-endings';
import type { SubnameWrite } from './subname-row';
import { refuseOutsideScope } from './subname-scope';
import { toSubnameWrite } from './subname-write';
import { RecordMap, SubnameEntity } from './subname.entity';
import { SubnameNotFoundError, SubnameTakenError } from './subnames.errors';
import { SubnamesRepository, SubnameWritten } from './subnames.repository';
import { isQuotaRefusal } from './upsert-queries';
import { ExportSlots } from './export-slots';

/** What resolution reads of a stored subname: addresses by decimal coin type, contenthash as its URI. Read-only. */
export interface SubnameRecords {
  texts: Readonly<RecordMap>;
  addresses: Readonly<RecordMap>;
  contenthash: string | null;
  ttl: number | null;
}

/** Checks and counts of the caller, run first in the write's transaction: throwing refuses the write and undoes them. */
export type WriteGuard = (manager: EntityManager) => Promise<void>;

export interface WriteOptions {
  createOnly?: boolean;
  guard?: WriteGuard;
}

export interface WriteResult {
  subname: SubnameResponse;
  created: boolean;
  quota: QuotaView;
  /** Primary names that the write ended by moving their name's coin-60 address. */
  ended: EndedPrimaryName[];
}

/** Rows per export query: large enough to amortise a round trip, small enough to keep memory flat. */
export const EXPORT_PAGE_SIZE = 1000;
/** Pieces written to the socket: below V8's large-object size, so they die young instead of waiting for a full GC. */
const EXPORT_CHUNK_CHARS = 32 * 1024;

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
    private readonly reads: ReadRouter,
    private readonly preambles: ExportPreambles,
    @Optional() private readonly endings?: PrimaryNameEndings,
  ) {}

  /** Create-or-update keyed by fullName, in the key's scope; a creation is charged to the key. */
  async upsert(key: AuthenticatedKey, dto: CreateSubnameDto, by: Actor): Promise<WriteResult> {
    this.keys.authorize(key, dto.parentName);
    return this.write(toSubnameWrite(key.id, dto), by);
  }

  /**
   * The one road of a subname's create or update (keyed and holders' writes): the write, its audit event and a
   * creation's quota charge (to `w.createdBy`) commit together, so a refused charge leaves none of them.
   * `createOnly`: 409 SUBNAME_TAKEN when the name is stored. `guard`: run first, in the write's transaction.
   */
  async write(w: SubnameWrite, by: Actor, { createOnly = false, guard }: WriteOptions = {}): Promise<WriteResult> {
    // Thrown inside the guard's transaction, a name found stored undoes the guard's counts too.
    const writeOn = async (m: EntityManager) => {
      const written = await this.subnames.write(m, w, by, createOnly);
      if (!written) throw new SubnameTakenError(w.fullName);
      return written;
    };
    let written: SubnameWritten;
    try {
      // Without a guard a creation is one statement outside any transaction (one round trip).
      written = guard
        ? await this.dataSource.transaction(async (m) => {
            await guard(m);
            return writeOn(m);
          })
        : await writeOn(this.dataSource.manager);
    } catch (e) {
      if (isQuotaRefusal(e)) throw await this.quota.refusal(this.dataSource.manager, w.createdBy);
      throw e;
    }
    this.cache.written([w.fullName]);
    const { entity, created, quota } = written;
    return {
      subname: toSubnameResponse(entity),
      created,
      quota: toQuotaView(quota),
      ended: await endedBy(this.endings, [written]),
    };
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
      'read',
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
      const preamble = await this.preambles.linesOf(parent);
      if (preamble !== '') yield preamble;
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
   * this process, and within a second by every replica (docs/reference.md#freshness).
   */
  private find(fullName: string): Promise<SubnameEntity | null> {
    return this.cache.get(fullName, () => this.reads.run((m) => this.subnames.findByFullName(m, fullName)));
  }

  /** Search and list: both routes land here. Stable order (creation time, then id), so pages never overlap. */
  async search(dto: SearchSubnamesDto): Promise<SubnamePageResponse> {
    const window = { limit: dto.size, offset: (dto.page - 1) * dto.size };
    const timeoutMs = this.config.searchStatementTimeoutMs;
    try {
      const { items, totalItems } = await this.reads.transaction((manager) =>
        this.subnames.searchPage(manager, toSubnameFilter(dto), window, timeoutMs),
      );
      return toSubnamePage(items, dto.page, dto.size, totalItems);
    } catch (e) {
      if (isStatementTimeout(e)) throw new SearchTimeoutError(timeoutMs);
      throw e;
    }
  }

  /**
   * Deletes a subname the key may write; the quota unit its creation took is not given back. The key's quota
   * after it comes back for the X-Quota headers every successful write carries.
   */
  async remove(
    key: AuthenticatedKey,
    fullName: string,
    by: Actor,
  ): Promise<{ ended: EndedPrimaryName[]; quota: QuotaView }> {
    this.keys.authorize(key, fullName.slice(fullName.indexOf('.') + 1));
    const { deleted, quota } = await this.dataSource.transaction(async (manager) => {
      const deleted = await this.subnames.deleteByFullName(manager, fullName);
      if (!deleted) throw new SubnameNotFoundError(fullName);
      const before = auditedSubname(deleted);
      await this.audit.record(manager, { by, action: 'subname.delete', subject: fullName, before, after: null });
      return { deleted, quota: await this.quota.view(manager, key.id) };
    });
    this.cache.written([fullName]);
    // A deleted name resolves to no address: it ends a primary name as moving its address would.
    const ended = await endedBy(this.endings, [{ entity: { ...deleted, addresses: {} }, previous: deleted }]);
    return { ended, quota };
  }
}
