import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet, { HelmetOptions } from 'helmet';

/**
 * Security headers. The API answers JSON only, so its policy allows nothing; Swagger UI at /docs loads its own
 * scripts and styles (inline styles, data: images) and keeps helmet's defaults, less upgrade-insecure-requests
 * (TLS ends at the gateway, and the UI must also work over plain HTTP in development).
 */
export const SECURITY_POLICIES: Record<'api' | 'docs', HelmetOptions> = {
  api: {
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  },
  docs: { contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } },
};

/** helmet with `pick(req)`'s policy, on every request. */
export function securityHeaders(
  policies: Record<string, HelmetOptions>,
  pick: (req: Request) => string,
): RequestHandler {
  const middlewares = new Map(Object.entries(policies).map(([name, options]) => [name, helmet(options)]));
  return (req: Request, res: Response, next: NextFunction) => middlewares.get(pick(req))!(req, res, next);
}
