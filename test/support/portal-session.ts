import type { Provider } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { CSRF_HEADER, PORTAL_COOKIE } from '../../src/portal/portal-auth';
import { PortalSessionService, WalletSession } from '../../src/portal/portal-session.service';
import { SiweVerifier } from '../../src/portal/siwe-verifier';

/** PUBLIC_URL's origin as the faked SiweVerifier gives it: the only origin allowed to change state. */
export const PORTAL_ORIGIN = 'https://portal.example.com';

export const WALLET: WalletSession = {
  address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  csrfToken: 'csrf-wallet',
  idHash: 'hash-wallet',
  admin: false,
};
export const OPERATOR: WalletSession = {
  address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  csrfToken: 'csrf-operator',
  idHash: 'hash-operator',
  admin: true,
};

/** The session cookies the faked PortalSessionService admits; any other is no session. */
const SESSIONS: Record<string, WalletSession> = { 'wallet-session': WALLET, 'operator-session': OPERATOR };
export type SessionId = 'wallet-session' | 'operator-session';

/**
 * The portal guards' collaborators for controllerApp: PortalSessionService admitting the cookies above (with
 * `sessions`' other methods, for the session controller) and SiweVerifier's origin.
 */
export function portalProviders(sessions: Partial<Record<keyof PortalSessionService, unknown>> = {}): Provider[] {
  const authenticate = (id?: string) => Promise.resolve((id && SESSIONS[id]) || null);
  return [
    { provide: PortalSessionService, useValue: { ...sessions, authenticate } },
    { provide: SiweVerifier, useValue: { origin: PORTAL_ORIGIN } },
  ];
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A portal request as the page sends it: the session cookie, and for a state change its Origin and CSRF token. */
export function asWallet(
  app: NestExpressApplication,
  method: Method,
  path: string,
  session: SessionId = 'wallet-session',
) {
  const req = request(app.getHttpServer())[method](path).set('Cookie', `${PORTAL_COOKIE}=${session}`);
  return method === 'get' ? req : req.set('Origin', PORTAL_ORIGIN).set(CSRF_HEADER, SESSIONS[session].csrfToken);
}

/** The same request without a session, or with a cookie the service does not know. */
export function anonymous(app: NestExpressApplication, method: Method, path: string, cookie?: string) {
  const req = request(app.getHttpServer())[method](path).set('Origin', PORTAL_ORIGIN);
  return cookie ? req.set('Cookie', `${PORTAL_COOKIE}=${cookie}`) : req;
}
