import type { NextFunction, Request, Response } from 'express';
import { isModuleMiddleware } from '../common/http/allowed-methods';
import { onResponseEnd } from '../common/http/response-end';
import type { Metrics } from './metrics';

/** The label of requests that matched no route (unknown paths, bodies refused before routing, /docs). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The route template a request matched (`/api/v1/subnames/:fullName`), never the raw path. A module middleware's
 * route (a body reader's `/api/v1/subnames`, a wildcard such as `/portal/api/{*path}`) is the last one matched when
 * the request went no further, so it means that no controller route matched (no controller route has a wildcard).
 */
export function routeOf(req: Request): string {
  const route = req.route as { path?: unknown; stack?: { name: string }[] } | undefined;
  if (typeof route?.path !== 'string' || route.path.includes('*')) return UNMATCHED_ROUTE;
  return route.stack && isModuleMiddleware({ stack: route.stack }) ? UNMATCHED_ROUTE : route.path;
}

/** Counts and times every request; registered before body parsing so refused bodies are counted too. */
export function httpMetrics(metrics: Metrics): (req: Request, res: Response, next: NextFunction) => void {
  const { httpDuration, httpInFlight, httpRequests } = metrics;
  return (req, res, next) => {
    const started = performance.now();
    httpInFlight.inc();
    onResponseEnd(res, () => {
      httpInFlight.dec();
      // A response cut off by the client never got its status; nginx's 499 says so.
      const status = res.writableFinished ? String(res.statusCode) : '499';
      const labels = { method: req.method, route: routeOf(req), status };
      httpRequests.inc(labels);
      httpDuration.observe(labels, (performance.now() - started) / 1000);
    });
    next();
  };
}
