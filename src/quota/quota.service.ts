import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainError } from '../common/errors';
import { quotaRefusals } from '../metrics/metrics';
import { QuotaRepository, QuotaState } from './quota.repository';

export class QuotaExceededError extends DomainError {
  constructor(state: QuotaState) {
    super('QUOTA_EXCEEDED', `This API key has used all ${state.limit} subname creations it is allowed`, undefined, {
      'X-Quota-Limit': String(state.limit),
      'X-Quota-Remaining': '0',
    });
  }
}

export interface QuotaView {
  limit: number;
  used: number;
  remaining: number;
}

export function toQuotaView(state: QuotaState): QuotaView {
  return { limit: state.limit, used: state.used, remaining: Math.max(0, state.limit - state.used) };
}

@Injectable()
export class QuotaService {
  constructor(private readonly quotas: QuotaRepository) {}

  open(manager: EntityManager, apiKeyId: string, limit: number): Promise<void> {
    return this.quotas.create(manager, apiKeyId, limit);
  }

  /** Charges one creation inside the caller's transaction; throws QuotaExceededError when none is left. */
  async charge(manager: EntityManager, apiKeyId: string): Promise<QuotaView> {
    const charged = await this.quotas.charge(manager, apiKeyId);
    if (charged) return toQuotaView(charged);
    quotaRefusals.inc();
    throw new QuotaExceededError((await this.quotas.find(apiKeyId, manager)) ?? { limit: 0, used: 0 });
  }

  async view(apiKeyId: string, manager?: EntityManager): Promise<QuotaView> {
    return toQuotaView((await this.quotas.find(apiKeyId, manager)) ?? { limit: 0, used: 0 });
  }

  async viewMany(apiKeyIds: string[]): Promise<Map<string, QuotaView>> {
    const states = await this.quotas.findMany(apiKeyIds);
    return new Map([...states].map(([id, s]) => [id, toQuotaView(s)]));
  }

  setLimit(manager: EntityManager, apiKeyId: string, limit: number): Promise<void> {
    return this.quotas.setLimit(manager, apiKeyId, limit);
  }
}
