import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import type { Actor } from '../audit/audit.types';
import { ReadRouter } from '../reads/read-router';
import { SubnamePageResponse, toSubnamePage } from './dto/subname-page.response';
import { toSubnameResponse } from './dto/subname.response';
import { EndedPrimaryName, endedBy, PrimaryNameEndings } from './primary-name-endings';
import type { RecordPatch } from './record-patch';
import { auditedSubname, subnameWriteEvent } from './subname-audit';
import { SubnameCache } from './subname-cache';
import type { SubnameWrite } from './subname-row';
import { SubnameNotFoundError } from './subnames.errors';
import { SubnamesRepository } from './subnames.repository';
import { SubnamesService, WriteGuard, WriteResult } from './subnames.service';

/**
 * Writes made by a name's holder rather than an API key: the same statements, audit trail, quota charge (to the
 * key `write.createdBy`), cache and primary-name endings as keyed writes, each in one transaction with the
 * caller's guard (the signer's issuedAt, the claim count), so that a refusal anywhere writes nothing.
 */
@Injectable()
export class SignedWrites {
  constructor(
    private readonly subnames: SubnamesRepository,
    private readonly writes: SubnamesService,
    private readonly audit: AuditService,
    private readonly cache: SubnameCache,
    private readonly reads: ReadRouter,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() private readonly endings?: PrimaryNameEndings,
  ) {}

  /** Creates an absent name charged to `write.createdBy`; 409 SUBNAME_TAKEN when it is stored. */
  create(write: SubnameWrite, by: Actor, guard: WriteGuard): Promise<WriteResult> {
    return this.writes.write(write, by, { createOnly: true, guard });
  }

  /** Applies a patch to a name `holder` owns; 404 when it holds no such name (deleted or moved meanwhile). */
  async patch(fullName: string, holder: string, p: RecordPatch, by: Actor, guard: WriteGuard): Promise<WriteResult> {
    const written = await this.dataSource.transaction(async (manager) => {
      await guard(manager);
      const row = await this.subnames.patch(manager, fullName, holder, p);
      if (!row) throw new SubnameNotFoundError(fullName);
      await this.audit.record(manager, subnameWriteEvent(by, row.entity, row.previous, false));
      return row;
    });
    this.cache.written([fullName]);
    const quota = { limit: 0, used: 0, remaining: 0 };
    return { subname: toSubnameResponse(written.entity), created: false, quota, ended: await this.ended(written) };
  }

  /** Deletes a name `holder` owns; the quota unit its creation took is not given back. */
  async remove(fullName: string, holder: string, by: Actor, guard: WriteGuard): Promise<EndedPrimaryName[]> {
    const deleted = await this.dataSource.transaction(async (manager) => {
      await guard(manager);
      const row = await this.subnames.deleteByFullName(manager, fullName, holder);
      if (!row) throw new SubnameNotFoundError(fullName);
      const before = auditedSubname(row);
      await this.audit.record(manager, { by, action: 'subname.delete', subject: fullName, before, after: null });
      return row;
    });
    this.cache.written([fullName]);
    return this.ended({ entity: { ...deleted, addresses: {} }, previous: deleted });
  }

  /** The names an address holds (any letter case given), the page shape of search; a public read (a standby's). */
  async heldBy(address: string, page: number, size: number): Promise<SubnamePageResponse> {
    const window = { limit: size, offset: (page - 1) * size };
    const { items, totalItems } = await this.reads.transaction((manager) =>
      this.subnames.ownedPage(manager, address.toLowerCase(), window),
    );
    return toSubnamePage(items, page, size, totalItems);
  }

  private ended(write: Parameters<typeof endedBy>[1][number]): Promise<EndedPrimaryName[]> {
    return endedBy(this.endings, [write]);
  }
}
