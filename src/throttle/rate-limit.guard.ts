import { createHash } from 'node:crypto';
import { ExecutionContext, Injectable } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  normalizeIp,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  ThrottlerStorage,
} from '@nestjs/throttler';
import type { ThrottlerRequest } from '@nestjs/throttler/dist/throttler.guard.interface';
import type { Request, Response } from 'express';
import { ApiKeyGuard } from '../auth/guards';
import { rateLimited } from '../metrics/metrics';
import { IP_LIMIT, KEY_LIMIT } from '../common/rate-limit.constants';
import { RateLimitedError } from './throttle.errors';

/** The tracker of an API key: a digest (the raw key is never stored, sent to Redis or logged). */
export function keyTracker(token: string): string {
  return `key:${createHash('sha256').update(`rate-limit:${token}`).digest('hex').slice(0, 32)}`;
}

/**
 * One global guard, two budgets. Routes that take an API key (those guarded by ApiKeyGuard, when the request
 * carries x-auth-token) count against the key's budget, whichever replica and address they come from; every
 * other route counts against the client address (the X-Forwarded-For client with TRUST_PROXY=true). Answers
 * carry the draft-6 IETF headers RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset (seconds until the
 * window ends) and RateLimit-Policy; a refusal is a 429 RATE_LIMITED problem with Retry-After.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private readonly keyedRoutes = new WeakMap<object, boolean>();

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
  ) {
    super(options, storage, reflector);
  }

  protected override async handleRequest({ context, limit, ttl, throttler }: ThrottlerRequest): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const token = req.headers['x-auth-token'];
    const byKey = typeof token === 'string' && token.length > 0 && this.isKeyedRoute(context);
    if (throttler.name === KEY_LIMIT && !byKey) return true;
    if (throttler.name === IP_LIMIT && byKey) return true;

    const tracker = byKey ? keyTracker(token) : `ip:${req.ip ? normalizeIp(req.ip) : 'unknown'}`;
    const count = await this.storageService.increment(tracker, ttl, limit, ttl, throttler.name!);
    const headers: Record<string, string> = {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.max(0, limit - count.totalHits)),
      'RateLimit-Reset': String(count.timeToExpire),
      'RateLimit-Policy': `${limit};w=${Math.round(ttl / 1000)}`,
    };
    if (!count.isBlocked) {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      return true;
    }
    rateLimited.inc({ limit: throttler.name });
    const scope = byKey ? 'API key' : 'client address';
    throw new RateLimitedError(
      `More than ${limit} requests in ${Math.round(ttl / 1000)} s from this ${scope}; retry in ${count.timeToBlockExpire} s`,
      count.timeToBlockExpire,
      headers,
    );
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
