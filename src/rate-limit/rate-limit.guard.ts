import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { ApiKeysService } from '../auth/api-keys.service';
import { KEYED_ROUTE } from '../auth/decorators';
import { KeyedRequest } from '../auth/guards';
import { AppConfig } from '../config/app-config';
import { clientAddressOf } from '../common/http/client-address';
import {
  HOLDER_BUDGET,
  HOLDER_LIMIT,
  IP_LIMIT,
  KEY_LIMIT,
  NO_RATE_LIMIT,
  RESOLUTION_BUDGET,
  RESOLUTION_LIMIT,
} from '../common/http/rate-limit.constants';
import { RateLimitStorage, WindowCount } from './rate-limit.storage';
import { Budget } from './budget';
import { TrustedSources } from './trusted-sources';

/**
 * What a route is charged: nothing (NoRateLimit), its client address, the address and then its API key, or the
 * address on the gateway's own budget (ResolutionBudget), or on the holder routes' own (HolderBudget).
 */
type RoutePolicy = 'none' | 'address' | 'keyed' | 'resolution' | 'holder';

/**
 * One global guard, two budgets. Every request first counts against its client address, before anything
 * else runs; on a route that takes an API key that is before the key is looked up, so a request with a
 * missing, unknown, revoked or expired key spends its sender's budget (and past it costs no hash and no
 * lookup), and made-up keys never buy a fresh budget. A key that proves valid gives the address its unit
 * back and counts against its own budget instead (`key:<id>`), whichever replica and address it comes from;
 * so only real keys ever get a counter. Answers carry the draft-6 IETF headers RateLimit-Limit,
 * RateLimit-Remaining, RateLimit-Reset (seconds until the window ends) and RateLimit-Policy; a refusal is a
 * 429 RATE_LIMITED problem with Retry-After. A route's policy is read from its metadata once; a public route
 * counted in this process is decided synchronously (no promise on the hot path).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly policies = new WeakMap<object, RoutePolicy>();
  private readonly windowMs: number;
  private readonly byAddress: Budget;
  private readonly byKey: Budget;
  private readonly byResolution: Budget;
  private readonly byHolder: Budget;
  private readonly trusted: TrustedSources;

  constructor(
    private readonly storage: RateLimitStorage,
    private readonly keys: ApiKeysService,
    private readonly reflector: Reflector,
    config: AppConfig,
  ) {
    this.windowMs = config.rateLimit.windowSeconds * 1000;
    this.byAddress = new Budget(IP_LIMIT, config.rateLimit.perIp, this.windowMs);
    this.byKey = new Budget(KEY_LIMIT, config.rateLimit.perKey, this.windowMs);
    this.byResolution = new Budget(RESOLUTION_LIMIT, config.rateLimit.resolutionPerIp, this.windowMs);
    this.byHolder = new Budget(HOLDER_LIMIT, config.rateLimit.perHolder, this.windowMs);
    this.trusted = new TrustedSources(config.rateLimit.trustedSources);
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const policy = this.policyOf(context);
    if (policy === 'none') return true;
    const http = context.switchToHttp();
    const req = http.getRequest<KeyedRequest>();
    const res = http.getResponse<Response>();
    if (policy === 'resolution') return this.chargeResolution(req.ip, res);
    if (policy === 'holder') return this.chargeHolder(req.ip, res);
    const address = `ip:${clientAddressOf(req.ip)}`;
    const counted = this.storage.hitInProcess(address, this.windowMs);
    if (counted && policy === 'address') return this.admit(res, this.byAddress, counted);
    return this.chargeKeyed(req, res, address, policy, counted);
  }

  /** A lookup: free from a trusted source, else counted per address apart from the write budgets. */
  private chargeResolution(ip: string | undefined, res: Response): boolean | Promise<boolean> {
    if (this.trusted.has(ip)) return true;
    const tracker = `res:${clientAddressOf(ip)}`;
    const counted = this.storage.hitInProcess(tracker, this.windowMs);
    if (counted) return this.admit(res, this.byResolution, counted);
    return this.storage.hit(tracker, this.windowMs).then((count) => this.admit(res, this.byResolution, count));
  }

  /** A holder route: its own budget per address (a made-up signature spends it); the signer's is the gate's. */
  private chargeHolder(ip: string | undefined, res: Response): boolean | Promise<boolean> {
    const tracker = `hld:${clientAddressOf(ip)}`;
    const counted = this.storage.hitInProcess(tracker, this.windowMs);
    if (counted) return this.admit(res, this.byHolder, counted);
    return this.storage.hit(tracker, this.windowMs).then((count) => this.admit(res, this.byHolder, count));
  }

  /** With a round trip: Redis or the cluster's primary counts the address, or the route takes an API key. */
  private async chargeKeyed(
    req: KeyedRequest,
    res: Response,
    address: string,
    policy: RoutePolicy,
    counted: WindowCount | undefined,
  ): Promise<boolean> {
    this.admit(res, this.byAddress, counted ?? (await this.storage.hit(address, this.windowMs)));
    if (policy !== 'keyed') return true;
    const token = req.headers['x-auth-token'];
    // A 401 here leaves the address's unit spent (and its headers on the answer); ApiKeyGuard reuses the key.
    req.apiKey = await this.keys.authenticate(typeof token === 'string' ? token : undefined);
    await this.storage.refund(address);
    const tracker = `key:${req.apiKey.id}`;
    return this.admit(
      res,
      this.byKey,
      this.storage.hitInProcess(tracker, this.windowMs) ?? (await this.storage.hit(tracker, this.windowMs)),
    );
  }

  /** Sends the budget's headers; past the limit, refuses the request with them. */
  private admit(res: Response, budget: Budget, count: WindowCount): true {
    const secondsLeft = budget.check(count);
    res.setHeader('RateLimit-Limit', budget.limitHeader);
    res.setHeader('RateLimit-Remaining', String(budget.limit - count.hits));
    res.setHeader('RateLimit-Reset', String(secondsLeft));
    res.setHeader('RateLimit-Policy', budget.policyHeader);
    return true;
  }

  /** NoRateLimit on the method or the controller: none; ApiKeyAuth on either: keyed; else the address. */
  private policyOf(context: ExecutionContext): RoutePolicy {
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
