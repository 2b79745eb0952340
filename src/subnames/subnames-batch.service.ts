import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthenticatedKey } from '../auth/api-key';
import { AuditService } from '../audit/audit.service';
import type { Actor } from '../audit/audit.types';
import { QuotaService, QuotaView } from '../quota/quota.service';
import { BatchResponse, BatchSubnamesDto } from './dto/batch-subnames.dto';
import { toSubnameResponse } from './dto/subname.response';
import { subnameWriteEvent } from './subname-audit';
import { SubnameCache } from './subname-cache';
import { refuseOutsideScope } from './subname-scope';
import { toSubnameWrite } from './subname-write';
import { SubnamesRepository } from './subnames.repository';

export interface BatchWriteResult {
  body: BatchResponse;
  quota: QuotaView;
}

/** POST /subnames/batch: many create-or-updates applied together. */
@Injectable()
export class SubnamesBatchService {
  constructor(
    private readonly subnames: SubnamesRepository,
    private readonly quota: QuotaService,
    private readonly audit: AuditService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cache: SubnameCache,
  ) {}

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
}
