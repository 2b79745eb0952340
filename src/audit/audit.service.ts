import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditQueryDto } from './dto/audit-query.dto';
import { AuditPageResponse, toAuditPage } from './dto/audit-event.response';
import { AuditRepository } from './audit.repository';
import type { AuditEvent } from './audit.types';

/** The audit trail: every module records its changes here, in the transaction of the change. */
@Injectable()
export class AuditService {
  constructor(
    private readonly events: AuditRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Call inside the transaction of the change, so that a rolled-back change leaves no event. */
  record(manager: EntityManager, event: AuditEvent): Promise<void> {
    return this.events.insert(manager, event);
  }

  /** A batch's events, one statement, in the batch's transaction. */
  recordMany(manager: EntityManager, events: AuditEvent[]): Promise<void> {
    return this.events.insertMany(manager, events);
  }

  async search(q: AuditQueryDto): Promise<AuditPageResponse> {
    const { items, totalItems } = await this.events.page(
      this.dataSource.manager,
      { since: q.since, actor: q.actor, subject: q.name },
      { limit: q.size, offset: (q.page - 1) * q.size },
    );
    return toAuditPage(items, q.page, q.size, totalItems);
  }
}
