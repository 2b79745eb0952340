import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { KEYED_ROUTE } from '../auth/decorators';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import {
  HOLDER_BUDGET,
  HOLDER_LIMIT,
  IP_LIMIT,
  KEY_LIMIT,
  NO_RATE_LIMIT,
  RESOLUTION_BUDGET,
  RESOLUTION_LIMIT,
} from '../common/http/rate-limit.constants';
import { Budget } from './budget';
import { TrustedSources } from './trusted-sources';

/**
 * What a route is charged: nothing (NoRateLimit), its client address, the address and then its API key, or the
 * address on the gateway's own budget (ResolutionBudget), or on the holder routes' own (HolderBudget).
 */
export type RoutePolicy = 'none' | 'address' | 'keyed' | 'resolution' | 'holder';
type LimitedPolicy = Exclude<RoutePolicy, 'none'>;

/** The throttler that spends a client address's budget on every limited route, before anything else runs. */
export const ADDRESS_THROTTLER = 'address';
/** The throttler that spends a valid API key's budget on keyed routes, once the address has paid. */
export const KEY_THROTTLER = 'key';

/** A budget and the prefix of its counters in the storage. */
export interface Charge {
  budget: Budget;
  prefix: string;
}

/**
 * The budgets and which of them a route spends, read from the route's metadata once per handler, so that the
 * throttlers' options and the guard ask it without a reflector lookup per request.
 */
@Injectable()
export class RouteBudgets {
  readonly windowMs: number;
  readonly byKey: Charge;
  /** The charge of a keyed route's address: the one a valid key gives its unit back to. */
  readonly byAddress: Charge;
  private readonly byPolicy: Record<LimitedPolicy, Charge>;
  private readonly policies = new WeakMap<object, RoutePolicy>();
  private readonly trusted: TrustedSources;

  constructor(
    private readonly reflector: Reflector,
    config: AppConfig,
    metrics: Metrics,
  ) {
    const { windowSeconds, perIp, perKey, resolutionPerIp, perHolder, trustedSources } = config.rateLimit;
    this.windowMs = windowSeconds * 1000;
    this.byKey = { budget: new Budget(KEY_LIMIT, perKey, this.windowMs, metrics), prefix: 'key' };
    this.byAddress = { budget: new Budget(IP_LIMIT, perIp, this.windowMs, metrics), prefix: 'ip' };
    this.byPolicy = {
      address: this.byAddress,
      keyed: this.byAddress,
      resolution: { budget: new Budget(RESOLUTION_LIMIT, resolutionPerIp, this.windowMs, metrics), prefix: 'res' },
      holder: { budget: new Budget(HOLDER_LIMIT, perHolder, this.windowMs, metrics), prefix: 'hld' },
    };
    this.trusted = new TrustedSources(trustedSources);
  }

  /** True when the request spends nothing: a NoRateLimit route, or a lookup from a trusted source. */
  isFree(context: ExecutionContext): boolean {
    const policy = this.policyOf(context);
    if (policy === 'none') return true;
    return policy === 'resolution' && this.trusted.has(context.switchToHttp().getRequest<Request>().ip);
  }

  /** The charge of a throttler on a limited route. */
  chargeOf(context: ExecutionContext, throttler: string | undefined): Charge {
    return throttler === KEY_THROTTLER ? this.byKey : this.byPolicy[this.policyOf(context) as LimitedPolicy];
  }

  /** The charge whose counter `key` is (a throttler's refusal names the counter, not the throttler). */
  chargeOfKey(context: ExecutionContext, key: string): Charge {
    return key.startsWith(`${this.byKey.prefix}:`)
      ? this.byKey
      : this.byPolicy[this.policyOf(context) as LimitedPolicy];
  }

  /** NoRateLimit on the method or the controller: none; ApiKeyAuth on either: keyed; else the address. */
  policyOf(context: ExecutionContext): RoutePolicy {
    const handler = context.getHandler();
    let policy = this.policies.get(handler);
    if (policy === undefined) {
      const targets = [handler, context.getClass()];
      if (this.reflector.getAllAndOverride<boolean>(NO_RATE_LIMIT, targets)) policy = 'none';
      else if (this.reflector.getAllAndOverride<boolean>(RESOLUTION_BUDGET, targets)) policy = 'resolution';
      else if (this.reflector.getAllAndOverride<boolean>(HOLDER_BUDGET, targets)) policy = 'holder';
      else if (this.reflector.getAllAndOverride<boolean>(KEYED_ROUTE, targets)) policy = 'keyed';
      else policy = 'address';
      this.policies.set(handler, policy);
    }
    return policy;
  }
}
