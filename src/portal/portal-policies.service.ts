import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthenticatedKey } from '../auth/api-key';
import { ApiKeysService, keyCovers } from '../auth/api-keys.service';
import { AuditService } from '../audit/audit.service';
import { walletActor } from '../audit/audit.types';
import { PolicyResponse } from '../holders/dto/policy.response';
import { PutPolicyDto } from '../holders/dto/put-policy.dto';
import { PoliciesService } from '../holders/policies.service';
import { NameControlService } from './name-control.service';
import { NoKeyForNameError } from './portal.errors';
import type { WalletSession } from './portal-session.service';

/** The holder policy of a name the wallet controls on chain now, set with one of the wallet's own keys. */
@Injectable()
export class PortalPoliciesService {
  constructor(
    private readonly policies: PoliciesService,
    private readonly keys: ApiKeysService,
    private readonly control: NameControlService,
    private readonly audit: AuditService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async find(wallet: WalletSession, name: string): Promise<PolicyResponse> {
    await this.control.control(wallet.address, name);
    return this.policies.findOrFail(name, true);
  }

  /** Claims are charged to a key's quota: the wallet's newest live key covering the name is the one charged. */
  async put(wallet: WalletSession, name: string, dto: PutPolicyDto, requestId: string): Promise<PolicyResponse> {
    await this.control.control(wallet.address, name);
    const key = await this.chargedKey(wallet, name);
    return this.dataSource.transaction(async (m) => {
      const policy = await this.policies.put(key, name, dto, m);
      const by = { actor: walletActor(wallet.address), requestId };
      const { parentName: _p, updatedAt: _u, ...after } = policy;
      await this.audit.record(m, { by, action: 'policy.put', subject: name, before: null, after });
      return policy;
    });
  }

  private async chargedKey(wallet: WalletSession, name: string): Promise<AuthenticatedKey> {
    const now = Date.now();
    const live = (await this.keys.listIssuedBy(wallet.address.toLowerCase()))
      .filter((k) => !k.revokedAt && !k.suspendedReason && (!k.expiresAt || k.expiresAt.getTime() > now))
      .filter((k) => keyCovers(k, name))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    if (live.length === 0) throw new NoKeyForNameError(name);
    return { id: live[0].id, keyPrefix: live[0].keyPrefix, parentNames: live[0].parentNames };
  }
}
