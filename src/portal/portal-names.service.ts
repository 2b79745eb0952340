import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { walletActor } from '../audit/audit.types';
import { ResolutionStatusResponse } from '../resolution/dto/resolution-status.dto';
import { ResolutionStatusService } from '../resolution/resolution-status.service';
import { SubnamePageResponse } from '../subnames/dto/subname-page.response';
import { ListSubnamesQueryDto } from '../subnames/dto/search-subnames.dto';
import { SubnamesService } from '../subnames/subnames.service';
import { MeResponse, NameControlResponse, PortalSubnamesQueryDto } from './dto/names.dto';
import { NameControl, NameControlService } from './name-control.service';
import { PortalRepository } from './portal.repository';
import type { WalletSession } from './portal-session.service';

/** The names a wallet controls, their subnames and whether they resolve through this service. */
@Injectable()
export class PortalNamesService {
  constructor(
    private readonly portal: PortalRepository,
    private readonly control: NameControlService,
    private readonly subnames: SubnamesService,
    private readonly status: ResolutionStatusService,
    private readonly audit: AuditService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async me(wallet: WalletSession): Promise<MeResponse> {
    const names = await this.portal.listNames(this.dataSource.manager, wallet.address.toLowerCase());
    return {
      address: wallet.address,
      csrfToken: wallet.csrfToken,
      admin: wallet.admin,
      names: names.map((n) => ({
        name: n.name,
        role: n.role,
        wrapped: n.wrapped,
        checkedAt: n.checkedAt.toISOString(),
      })),
    };
  }

  /** Checks on chain, now, that the wallet controls the name, and keeps it in the wallet's list with its role. */
  async add(wallet: WalletSession, name: string, requestId: string): Promise<NameControlResponse> {
    const address = wallet.address.toLowerCase();
    const control = await this.control.control(wallet.address, name);
    await this.dataSource.transaction(async (m) => {
      await this.portal.upsertName(m, address, control);
      const by = { actor: walletActor(address), requestId };
      const after = { role: control.role, wrapped: control.wrapped };
      await this.audit.record(m, { by, action: 'portal.name-add', subject: name, before: null, after });
    });
    return { name: control.name, role: control.role, wrapped: control.wrapped };
  }

  /** Keeps a name the wallet was just found to control (on issuing a key for it). */
  async remember(wallet: WalletSession, control: NameControl): Promise<void> {
    await this.portal.upsertName(this.dataSource.manager, wallet.address.toLowerCase(), control);
  }

  async subnamesOf(wallet: WalletSession, query: PortalSubnamesQueryDto): Promise<SubnamePageResponse> {
    await this.control.control(wallet.address, query.parentName!);
    return this.subnames.search(Object.assign(new ListSubnamesQueryDto(), query));
  }

  /**
   * The NDJSON export of a parent the wallet controls, as a key scoped to exactly that parent would read it; the
   * wallet stands for the key in the count of exports running at once.
   */
  async exportOf(wallet: WalletSession, parentName: string): Promise<AsyncIterable<string>> {
    await this.control.control(wallet.address, parentName);
    const scope = { id: walletActor(wallet.address), keyPrefix: '', parentNames: [parentName] };
    return this.subnames.exportLines(scope, { parentName: [parentName] });
  }

  resolution(name: string): Promise<ResolutionStatusResponse> {
    return this.status.check(name);
  }
}
