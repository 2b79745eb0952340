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

/** What a middleware does to a response's headers: the headers it sets and those it removes. */
export interface HeaderPlan {
  set: [string, string | string[]][];
  remove: string[];
}

/**
 * Runs a header-only middleware once on a stand-in response and records what it did. Valid for middlewares whose
 * headers do not depend on the request, as helmet's do for a policy without nonces (security-headers.spec.ts
 * proves the recorded plan gives what helmet gives).
 */
export function recordHeaders(middleware: RequestHandler): HeaderPlan {
  const plan: HeaderPlan = { set: [], remove: [] };
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      plan.set.push([name, Array.isArray(value) ? [...(value as string[])] : String(value)]);
      return res;
    },
    removeHeader: (name: string) => plan.remove.push(name),
  };
  let called = false;
  middleware({} as Request, res as unknown as Response, (err?: unknown) => {
    if (err) throw err;
    called = true;
  });
  if (!called) throw new Error('the middleware did not finish synchronously');
  return plan;
}

function apply(plan: HeaderPlan, res: Response): void {
  for (const name of plan.remove) res.removeHeader(name);
  for (const [name, value] of plan.set) res.setHeader(name, value);
}

/**
 * helmet's headers for `pick(req)`'s policy, computed once at start-up instead of by a dozen middlewares per
 * request.
 */
export function securityHeaders(
  policies: Record<string, HelmetOptions>,
  pick: (req: Request) => string,
): RequestHandler {
  const plans = new Map(Object.entries(policies).map(([name, options]) => [name, recordHeaders(helmet(options))]));
  return (req: Request, res: Response, next: NextFunction) => {
    apply(plans.get(pick(req))!, res);
    next();
  };
}
