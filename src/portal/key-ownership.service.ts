import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { getAddress } from 'ethers';
import { DataSource } from 'typeorm';
import { ApiKeyEntity } from '../auth/api-key.entity';
import { ApiKeysService } from '../auth/api-keys.service';
import { AuditService } from '../audit/audit.service';
import { type Actor, PORTAL_ACTOR } from '../audit/audit.types';
import { ChainUnavailableError } from '../chain/chain.errors';
import { AppConfig } from '../config/app-config';
import { NameControlService } from './name-control.service';
import { NotNameControllerError } from './portal.errors';

/** The advisory lock that lets one replica at a time check the portal's keys. */
export const RECHECK_LOCK = 0x706f7274616c;

/**
 * A portal key works only while its issuer controls every parent in its scope: checked at each portal action
 * on the key and every PORTAL_RECHECK_SECONDS by one replica (a PostgreSQL advisory lock). A key whose issuer
 * lost a parent is suspended, and works again once control returns. A chain that cannot be read changes nothing.
 */
@Injectable()
export class KeyOwnershipService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(KeyOwnershipService.name);
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly keys: ApiKeysService,
    private readonly control: NameControlService,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.ens.rpcUrl) return;
    this.timer = setInterval(() => void this.recheckAll(), this.config.portal.recheckSeconds * 1000);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /**
   * The suspension reason now (null: every parent controlled), or undefined when the chain could not say. `checked`
   * shares each (issuer, parent) answer among the keys of one round, so a round costs one check per parent.
   */
  async recheck(
    key: ApiKeyEntity,
    by: Actor,
    checked = new Map<string, Promise<boolean>>(),
  ): Promise<string | null | undefined> {
    if (!key.issuedBy || key.revokedAt) return key.suspendedReason;
    const issuer = key.issuedBy;
    let reason: string | null = null;
    try {
      for (const parent of key.parentNames) {
        const id = `${issuer} ${parent}`;
        if (!checked.has(id)) checked.set(id, this.controls(issuer, parent));
        if (await checked.get(id)!) continue;
        reason = `its issuer ${getAddress(issuer)} no longer controls ${parent}`;
        break;
      }
    } catch (e) {
      if (e instanceof ChainUnavailableError) return undefined;
      throw e;
    }
    if (reason === key.suspendedReason) return reason;
    await this.dataSource.transaction(async (m) => {
      if (!(await this.keys.setSuspension(m, key.id, reason))) return;
      const action = reason ? 'key.suspend' : 'key.resume';
      const before = { suspendedReason: key.suspendedReason };
      await this.audit.record(m, { by, action, subject: key.id, before, after: { suspendedReason: reason } });
    });
    this.logger.log({ msg: `key ${key.id} ${reason ? `suspended: ${reason}` : 'resumed'}` });
    return reason;
  }

  private async controls(issuer: string, parent: string): Promise<boolean> {
    try {
      await this.control.control(issuer, parent);
      return true;
    } catch (e) {
      if (e instanceof NotNameControllerError) return false;
      throw e;
    }
  }

  /** Every live portal key, if this replica holds the lock; the others skip this round. */
  async recheckAll(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [RECHECK_LOCK])) as {
        locked: boolean;
      }[];
      if (!locked) return;
      try {
        const by = { actor: PORTAL_ACTOR, requestId: `recheck-${Date.now()}` };
        const checked = new Map<string, Promise<boolean>>();
        for (const key of await this.keys.listLivePortalKeys()) await this.recheck(key, by, checked);
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [RECHECK_LOCK]);
      }
    } catch (e) {
      this.logger.warn(`portal key check failed: ${(e as Error).message}`);
    } finally {
      await runner.release();
      this.running = false;
    }
  }
}
