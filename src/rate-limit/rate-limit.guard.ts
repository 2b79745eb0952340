import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  ThrottlerRequest,
} from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { clientAddressOf } from '../common/http/client-address';
import { RateLimitStorage } from './rate-limit.storage';
import { RouteBudgets } from './route-budgets';

/**
 * Throttler's guard on our budgets (see the throttlers in rate-limit.options.ts). Every limited request first
 * spends its client address's budget; on a keyed route the key throttler then looks the key up, gives the address
 * its unit back and spends the key's budget. One counter per client and budget, not per route. Answers carry the
 * draft-6 IETF headers RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset (seconds until the window ends) and
 * RateLimit-Policy; a refusal is a 429 RATE_LIMITED problem with Retry-After.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: RateLimitStorage,
    reflector: Reflector,
    private readonly budgets: RouteBudgets,
  ) {
    super(options, storage, reflector);
  }

  /** NoRateLimit routes, lookups from trusted sources and anything but HTTP spend nothing. */
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(context.getType() !== 'http' || this.budgets.isFree(context));
  }

  /** Throttler's own, with the draft-6 headers of our budget in place of its X-RateLimit-* ones. */
  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration, getTracker, generateKey } = props;
    const req = context.switchToHttp().getRequest<Request>();
    const tracker = await getTracker(req, context);
    const key = generateKey(context, tracker, throttler.name!);
    const record = await this.storageService.increment(key, ttl, limit, blockDuration, throttler.name!);
    if (record.isBlocked) await this.throwThrottlingException(context, { ...record, limit, ttl, key, tracker });
    const { budget } = this.budgets.chargeOf(context, throttler.name);
    const res = context.switchToHttp().getResponse<Response>();
    res.setHeader('RateLimit-Limit', budget.limitHeader);
    res.setHeader('RateLimit-Remaining', String(budget.limit - record.totalHits));
    res.setHeader('RateLimit-Reset', String(record.timeToExpire));
    res.setHeader('RateLimit-Policy', budget.policyHeader);
    return true;
  }

  /** The client address as Express derives it under TRUST_PROXY, IPv6 grouped by /64. */
  protected override getTracker(req: Request): Promise<string> {
    return Promise.resolve(clientAddressOf(req.ip));
  }

  /** One counter per client and budget (`ip:`, `res:`, `hld:`, `key:`), whatever the route: no hash. */
  protected override generateKey(context: ExecutionContext, tracker: string, throttler: string): string {
    return `${this.budgets.chargeOf(context, throttler).prefix}:${tracker}`;
  }

  /** The 429 RATE_LIMITED problem of the budget whose counter refused, with its headers and Retry-After. */
  protected override throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const { budget } = this.budgets.chargeOfKey(context, detail.key);
    return budget.refuse(detail.totalHits, detail.timeToBlockExpire);
  }
}
