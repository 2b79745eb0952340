import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Metrics } from '../metrics/metrics';
import { QuotaExceededError, QuotaView } from './quota.errors';
import { QuotaRepository } from './quota.repository';
import type { QuotaState } from './quota.statements';

export type { QuotaView } from './quota.errors';

/** A key's state as the API shows it; a key without a quota shows zeros. */
export function toQuotaView(state: QuotaState | null | undefined): QuotaView {
  const { limit, used } = state ?? { limit: 0, used: 0 };
  return { limit, used, remaining: Math.max(0, limit - used) };
}

/** Creations allowed per API key: opened when a key is issued, charged in the writer's transaction. */
@Injectable()
export class QuotaService {
  constructor(
    private readonly quotas: QuotaRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly metrics: Metrics = new Metrics(),
  ) {}

  open(manager: EntityManager, apiKeyId: string, limit: number): Promise<void> {
    return this.quotas.create(manager, apiKeyId, limit);
  }

  /**
   * Charges `creations` (all or none) inside the caller's transaction; throws QuotaExceededError when fewer
   * are left. Writers insert their rows first and charge last, so the key's quota row is always the last lock
   * a write takes: a transaction holding it waits for nothing, and writers of one key cannot deadlock.
   */
  async charge(manager: EntityManager, apiKeyId: string, creations = 1): Promise<QuotaView> {
    const charged = await this.quotas.charge(manager, apiKeyId, creations);
    if (charged) return toQuotaView(charged);
    throw await this.refusal(manager, apiKeyId, creations);
  }

  /** The refusal of `creations` that found too few units left (counted in the metric), with what is left. */
  async refusal(manager: EntityManager, apiKeyId: string, creations = 1): Promise<QuotaExceededError> {
    this.metrics.quotaRefusals.inc(creations);
    const { limit, remaining } = toQuotaView(await this.quotas.find(manager, apiKeyId));
    if (creations === 1) return new QuotaExceededError(limit);
    return new QuotaExceededError(
      limit,
      `This batch creates ${creations} subnames; this API key has ${remaining} of its ${limit} creations left`,
      remaining,
    );
  }

  async view(manager: EntityManager, apiKeyId: string): Promise<QuotaView> {
    return toQuotaView(await this.quotas.find(manager, apiKeyId));
  }

  /** Outside any transaction: what GET /quota and the admin listing show. */
  current(apiKeyId: string): Promise<QuotaView> {
    return this.view(this.dataSource.manager, apiKeyId);
  }

  async currentMany(apiKeyIds: string[]): Promise<Map<string, QuotaView>> {
    const states = await this.quotas.findMany(this.dataSource.manager, apiKeyIds);
    return new Map(apiKeyIds.map((id) => [id, toQuotaView(states.get(id))]));
  }

  setLimit(manager: EntityManager, apiKeyId: string, limit: number): Promise<void> {
    return this.quotas.setLimit(manager, apiKeyId, limit);
  }
}
