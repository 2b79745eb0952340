import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { HelmetOptions } from 'helmet';

export const PORTAL_PATH = '/portal';
const API_PATH = `${PORTAL_PATH}/api`;

/** The page's policy: its own scripts and styles only (nothing inline), data: images (wallet icons), no framing. */
export const PORTAL_SECURITY_POLICY: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
    },
  },
};

/** The page and its files (not its JSON API). */
export function isPortalPage(path: string): boolean {
  return (path === PORTAL_PATH || path.startsWith(`${PORTAL_PATH}/`)) && !isPortalApi(path);
}

/** The JSON API under /portal/api (its bodies are read after its guards: ReadDeferredBody on each controller). */
export function isPortalApi(path: string): boolean {
  return path === API_PATH || path.startsWith(`${API_PATH}/`);
}

/** Every /portal/api answer, errors included, is never stored: it carries sessions, tokens and secrets. */
export const portalNoStore: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
  if (isPortalApi(req.path)) res.setHeader('Cache-Control', 'no-store');
  next();
};
