import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { ApiCookieAuth } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { UnauthorizedError } from '../common/errors';
import { ApiProblem } from '../common/http/openapi';
import { CrossSiteRequestError, NotOperatorError } from './portal.errors';
import { PortalSessionService, tokensEqual, WalletSession } from './portal-session.service';
import { SESSION_ABSOLUTE_SECONDS } from './portal.repository';
import { SiweVerifier } from './siwe-verifier';

/** The session cookie: `__Host-` makes browsers insist on Secure, Path=/ and no Domain. */
export const PORTAL_COOKIE = '__Host-sns_portal';
export const CSRF_HEADER = 'x-portal-csrf';
/** The OpenAPI security scheme of the session cookie. */
export const PORTAL_SESSION_SCHEME = 'portal-session';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type PortalRequest = Request & { wallet?: WalletSession };

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function cookie(req: Request, name: string): string | undefined {
  for (const part of (header(req, 'cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

export function setSessionCookie(res: Response, id: string): void {
  res.setHeader(
    'Set-Cookie',
    `${PORTAL_COOKIE}=${id}; Path=/; Max-Age=${SESSION_ABSOLUTE_SECONDS}; HttpOnly; Secure; SameSite=Strict`,
  );
}

export function clearSessionCookie(res: Response): void {
  res.setHeader('Set-Cookie', `${PORTAL_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Strict`);
}

/**
 * A state change must come from the portal's own origin: Origin, when sent, equal to PUBLIC_URL's; without it,
 * Sec-Fetch-Site: same-origin. Other ports and subdomains of the site are other origins.
 */
export function assertSameOrigin(req: Request, origin: string | undefined): void {
  if (SAFE_METHODS.has(req.method)) return;
  const given = header(req, 'origin');
  if (given !== undefined) {
    if (origin && given === origin) return;
    throw new CrossSiteRequestError(
      `The request came from ${given}, not from the portal's origin ${origin ?? '(none)'}`,
    );
  }
  if (header(req, 'sec-fetch-site') !== 'same-origin')
    throw new CrossSiteRequestError('A state change needs the Origin of the portal, or Sec-Fetch-Site: same-origin');
}

/** The sign-in routes: no session yet, but only from the portal's own origin. */
@Injectable()
export class SameOriginGuard implements CanActivate {
  constructor(private readonly siwe: SiweVerifier) {}

  canActivate(context: ExecutionContext): boolean {
    assertSameOrigin(context.switchToHttp().getRequest<Request>(), this.siwe.origin);
    return true;
  }
}

/** A live session first (401 before any other check), then for a state change the origin and the CSRF token. */
@Injectable()
export class WalletSessionGuard implements CanActivate {
  constructor(
    private readonly sessions: PortalSessionService,
    private readonly siwe: SiweVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<PortalRequest>();
    const session = await this.sessions.authenticate(cookie(req, PORTAL_COOKIE));
    if (!session) throw new UnauthorizedError('Sign in to the portal first: there is no valid session');
    assertSameOrigin(req, this.siwe.origin);
    if (!SAFE_METHODS.has(req.method)) {
      const token = header(req, CSRF_HEADER);
      if (!token || !tokensEqual(token, session.csrfToken))
        throw new CrossSiteRequestError(`${CSRF_HEADER} is missing or wrong: send the csrfToken of GET /portal/api/me`);
    }
    req.wallet = session;
    return true;
  }
}

@Injectable()
export class OperatorGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (!context.switchToHttp().getRequest<PortalRequest>().wallet?.admin) throw new NotOperatorError();
    return true;
  }
}

const CROSS_SITE = 'CROSS_SITE_REQUEST: a state change from another origin, or without the x-portal-csrf token';

/** Sign-in routes: the origin check and its OpenAPI metadata. */
export function SameOrigin(): MethodDecorator & ClassDecorator {
  return applyDecorators(UseGuards(SameOriginGuard), ApiProblem(403, CROSS_SITE));
}

/** Routes for a signed-in wallet: guard plus OpenAPI metadata. */
export function WalletAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(WalletSessionGuard),
    ApiCookieAuth(PORTAL_SESSION_SCHEME),
    ApiProblem(401, 'UNAUTHORIZED: no valid portal session (the __Host-sns_portal cookie)'),
    ApiProblem(403, CROSS_SITE),
  );
}

/** Operator routes: a signed-in wallet listed in PORTAL_ADMIN_ADDRESSES. */
export function OperatorAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    WalletAuth(),
    UseGuards(OperatorGuard),
    ApiProblem(403, 'NOT_OPERATOR: the wallet is not in PORTAL_ADMIN_ADDRESSES; or CROSS_SITE_REQUEST'),
  );
}

/** The signed-in wallet of WalletSessionGuard. */
export const CurrentWallet = createParamDecorator((_: unknown, ctx: ExecutionContext): WalletSession => {
  return ctx.switchToHttp().getRequest<PortalRequest>().wallet!;
});

export { RequestId } from '../common/http/request-id';
