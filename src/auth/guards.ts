import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Request } from 'express';
import { AppConfig } from '../config/app-config';
import { NotFoundError, UnauthorizedError } from '../common/errors';
import { AuthenticatedKey } from './api-key';
import { ApiKeysService } from './api-keys.service';

/** What the guards attach: the authenticated key, or that the admin token was presented. */
export type KeyedRequest = Request & { apiKey?: AuthenticatedKey; admin?: boolean };

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Admits requests with a valid, unrevoked, unexpired `x-auth-token` and attaches the key. The global rate-limit
 * guard, which runs first, has usually looked the key up already (after charging the client address).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly keys: ApiKeysService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<KeyedRequest>();
    req.apiKey ??= await this.keys.authenticate(header(req, 'x-auth-token'));
    return true;
  }
}

/** Admits requests with the configured `x-admin-token`; the admin routes do not exist without one. */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected?: Buffer;

  constructor(config: AppConfig) {
    this.expected = config.adminToken ? createHash('sha256').update(config.adminToken).digest() : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<KeyedRequest>();
    if (!this.expected) throw new NotFoundError(`No route: ${req.method} ${req.path}`);
    const given = header(req, 'x-admin-token');
    const digest = createHash('sha256')
      .update(given ?? '')
      .digest();
    if (!given || !timingSafeEqual(digest, this.expected))
      throw new UnauthorizedError('A valid x-admin-token is required');
    req.admin = true;
    return true;
  }
}
