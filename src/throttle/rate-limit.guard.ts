import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { normalizeIp } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { ApiKeysService } from '../auth/api-keys.service';
import { ApiKeyGuard, KeyedRequest } from '../auth/guards';
import { AppConfig } from '../config/app-config';
import { rateLimited } from '../metrics/metrics';
import { IP_LIMIT, KEY_LIMIT, NO_RATE_LIMIT } from '../common/rate-limit.constants';
import { RateLimitStorage } from './rate-limit.storage';
import { RateLimitedError } from './throttle.errors';

/** The tracker of a client address (IPv6 grouped by /64), as Express derives it under TRUST_PROXY. */
export function addressTracker(req: Request): string {
  return `ip:${req.ip ? normalizeIp(req.ip) : 'unknown'}`;
}

/**
 * One global guard, two budgets. Every request first counts against its client address, before anything
 * else runs; on a route that takes an API key that is before the key is looked up, so a request with a
 * missing, unknown, revoked or expired key spends its sender's budget (and past it costs no hash and no
 * lookup), and made-up keys never buy a fresh budget. A key that proves valid gives the address its unit
 * back and counts against its own budget instead (`key:<id>`), whichever replica and address it comes from;
 * so only real keys ever get a counter. Answers carry the draft-6 IETF headers RateLimit-Limit,
 * RateLimit-Remaining, RateLimit-Reset (seconds until the window ends) and RateLimit-Policy; a refusal is a
 * 429 RATE_LIMITED problem with Retry-After.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly keyedRoutes = new WeakMap<object, boolean>();
  private readonly windowMs: number;

  constructor(
    private readonly storage: RateLimitStorage,
    private readonly keys: ApiKeysService,
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
  ) {
    this.windowMs = config.rateLimit.windowSeconds * 1000;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(NO_RATE_LIMIT, [context.getHandler(), context.getClass()])) {
      return true;
    }
    const req = context.switchToHttp().getRequest<KeyedRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const address = addressTracker(req);
    this.admit(res, await this.charge(address, this.config.rateLimit.perIp, IP_LIMIT));
    if (!this.isKeyedRoute(context)) return true;
    const token = req.headers['x-auth-token'];
    // A 401 here leaves the address's unit spent (and its headers on the answer); ApiKeyGuard reuses the key.
    req.apiKey = await this.keys.authenticate(typeof token === 'string' ? token : undefined);
    await this.storage.refund(address);
    return this.admit(res, await this.charge(`key:${req.apiKey.id}`, this.config.rateLimit.perKey, KEY_LIMIT));
  }

  /** Counts one request against a tracker; past the limit, refuses it. Returns the headers to send. */
  private async charge(tracker: string, limit: number, name: string): Promise<Record<string, string>> {
    const count = await this.storage.increment(tracker, this.windowMs, limit, this.windowMs, name);
    const seconds = Math.round(this.windowMs / 1000);
    const headers: Record<string, string> = {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.max(0, limit - count.totalHits)),
      'RateLimit-Reset': String(count.timeToExpire),
      'RateLimit-Policy': `${limit};w=${seconds}`,
    };
    if (!count.isBlocked) return headers;
    rateLimited.inc({ limit: name });
    const scope = name === KEY_LIMIT ? 'API key' : 'client address';
    throw new RateLimitedError(
      `More than ${limit} requests in ${seconds} s from this ${scope}; retry in ${count.timeToBlockExpire} s`,
      count.timeToBlockExpire,
      headers,
    );
  }

  private admit(res: Response, headers: Record<string, string>): true {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    return true;
  }

  /** True for handlers that ApiKeyGuard protects (on the method or the controller). */
  private isKeyedRoute(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let keyed = this.keyedRoutes.get(handler);
    if (keyed === undefined) {
      const guards = this.reflector.getAllAndMerge<unknown[]>(GUARDS_METADATA, [handler, context.getClass()]);
      keyed = guards.includes(ApiKeyGuard);
      this.keyedRoutes.set(handler, keyed);
    }
    return keyed;
  }
}
