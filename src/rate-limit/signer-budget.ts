import { Metrics } from '../metrics/metrics';
import { Injectable } from '@nestjs/common';
import { HOLDER_LIMIT } from '../common/http/rate-limit.constants';
import { AppConfig } from '../config/app-config';
import { Budget } from './budget';
import { RateLimitStorage } from './rate-limit.storage';

/**
 * The holder routes' budget per signer (RATE_LIMIT_PER_HOLDER), charged once a signature proves whose it is, so
 * that one wallet cannot act past it from many addresses; counted where the guard counts (Redis when shared).
 */
@Injectable()
export class SignerBudget {
  private readonly windowMs: number;
  private readonly budget: Budget;

  constructor(
    private readonly storage: RateLimitStorage,
    config: AppConfig,
    metrics: Metrics = new Metrics(),
  ) {
    this.windowMs = config.rateLimit.windowSeconds * 1000;
    this.budget = new Budget(HOLDER_LIMIT, config.rateLimit.perHolder, this.windowMs, metrics, 'signer');
  }

  /** Counts one action of `signer` (an address, any case); past the budget, 429 RATE_LIMITED. */
  async charge(signer: string): Promise<void> {
    const tracker = `sgn:${signer.toLowerCase()}`;
    this.budget.check(
      this.storage.hitInProcess(tracker, this.windowMs) ?? (await this.storage.hit(tracker, this.windowMs)),
    );
  }
}
