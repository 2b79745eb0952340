import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RotateApiKeyDto } from '../admin/dto/api-key.dto';
import { KeysService } from '../admin/keys.service';
import { ApiKeyEntity } from '../auth/api-key.entity';
import { ApiKeysService } from '../auth/api-keys.service';
import { walletActor } from '../audit/audit.types';
import { AppConfig } from '../config/app-config';
import { NotFoundError } from '../common/errors';
import { QuotaService } from '../quota/quota.service';
import {
  CreatedPortalKeyResponse,
  CreatePortalKeyDto,
  PortalKeyResponse,
  toPortalKeyResponse,
} from './dto/portal-key.dto';
import { KeyOwnershipService } from './key-ownership.service';
import { NameControlService } from './name-control.service';
import type { WalletSession } from './portal-session.service';
import { PortalNamesService } from './portal-names.service';

/** A wallet's own keys: issued for names it controls on chain now, rotated and revoked by it alone. */
@Injectable()
export class PortalKeysService {
  constructor(
    private readonly admin: KeysService,
    private readonly keys: ApiKeysService,
    private readonly quota: QuotaService,
    private readonly control: NameControlService,
    private readonly names: PortalNamesService,
    private readonly ownership: KeyOwnershipService,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async list(wallet: WalletSession): Promise<PortalKeyResponse[]> {
    const keys = await this.keys.listIssuedBy(wallet.address.toLowerCase());
    const quotas = await this.quota.currentMany(keys.map((k) => k.id));
    return keys.map((k) => toPortalKeyResponse(k, quotas.get(k.id)!));
  }

  /** Each parent is checked on chain now, whether or not the wallet added it before; the quota is the default. */
  async issue(wallet: WalletSession, dto: CreatePortalKeyDto, requestId: string): Promise<CreatedPortalKeyResponse> {
    const controls = [];
    for (const parent of dto.parentNames) controls.push(await this.control.control(wallet.address, parent));
    const by = { actor: walletActor(wallet.address), requestId };
    const { keysPerParent: perParent, keysPerWallet: perWallet } = this.config.portal;
    const issuer = wallet.address.toLowerCase();
    const created = await this.admin.issue({ ...dto, quota: undefined }, by, issuer, { perParent, perWallet });
    // Remembered once the key exists, so that a refused issue (a key limit) changes nothing.
    for (const control of controls) await this.names.remember(wallet, control);
    return { ...created, remaining: created.quota - created.used, suspendedReason: null };
  }

  async rotate(
    wallet: WalletSession,
    id: string,
    dto: RotateApiKeyDto,
    requestId: string,
  ): Promise<CreatedPortalKeyResponse> {
    const by = { actor: walletActor(wallet.address), requestId };
    await this.ownership.recheck(await this.own(wallet, id), by);
    const rotated = await this.admin.rotate(id, dto, by);
    return { ...(await this.view(id)), key: rotated.key };
  }

  async revoke(wallet: WalletSession, id: string, requestId: string): Promise<void> {
    await this.own(wallet, id);
    await this.admin.revoke(id, { actor: walletActor(wallet.address), requestId });
  }

  /** The key, when this wallet issued it; 404 whoever else it belongs to. */
  private async own(wallet: WalletSession, id: string): Promise<ApiKeyEntity> {
    const key = await this.keys.find(this.dataSource.manager, id);
    if (!key || key.issuedBy !== wallet.address.toLowerCase()) throw new NotFoundError(`No API key with id ${id}`);
    return key;
  }

  private async view(id: string): Promise<PortalKeyResponse> {
    const key = (await this.keys.find(this.dataSource.manager, id))!;
    return toPortalKeyResponse(key, await this.quota.current(id));
  }
}
