import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { KeysService } from '../admin/keys.service';
import { ApiKeysService } from '../auth/api-keys.service';
import { AuditService } from '../audit/audit.service';
import { walletActor } from '../audit/audit.types';
import { AuditPageResponse } from '../audit/dto/audit-event.response';
import { AuditQueryDto } from '../audit/dto/audit-query.dto';
import { QuotaService } from '../quota/quota.service';
import { AdminKeyPageResponse, AdminKeysQueryDto, PortalKeyResponse, toPortalKeyResponse } from './dto/portal-key.dto';
import type { WalletSession } from './portal-session.service';

/** What an operator wallet (PORTAL_ADMIN_ADDRESSES) sees and changes: every key, its quota, the audit trail. */
@Injectable()
export class PortalAdminService {
  constructor(
    private readonly admin: KeysService,
    private readonly keys: ApiKeysService,
    private readonly quota: QuotaService,
    private readonly audit: AuditService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async keysPage(query: AdminKeysQueryDto): Promise<AdminKeyPageResponse> {
    const all = await this.keys.list();
    const page = all.slice((query.page - 1) * query.size, query.page * query.size);
    const quotas = await this.quota.currentMany(page.map((k) => k.id));
    const items = page.map((k) => toPortalKeyResponse(k, quotas.get(k.id)!));
    return { items, page: query.page, size: query.size, totalItems: all.length };
  }

  async setQuota(wallet: WalletSession, id: string, quota: number, requestId: string): Promise<PortalKeyResponse> {
    const updated = await this.admin.update(id, { quota }, { actor: walletActor(wallet.address), requestId });
    const key = (await this.keys.find(this.dataSource.manager, id))!;
    return toPortalKeyResponse(key, {
      limit: updated.quota,
      used: updated.used,
      remaining: updated.quota - updated.used,
    });
  }

  auditPage(query: AuditQueryDto): Promise<AuditPageResponse> {
    return this.audit.search(query);
  }
}
