import type { Request } from 'express';

/** What the filter needs of an Express router layer: its route's methods and its path matcher. */
interface RouteLayer {
  route?: { methods: Record<string, boolean | undefined>; stack: { name: string }[] };
  match(path: string): unknown;
}

/**
 * Nest's routes for module middleware bound to one method (`forRoutes({ path, method })`) serve no resource,
 * so they allow no method: Nest's Express adapter names their one handler `handler` (controllers' are anonymous;
 * the 405 e2e specs would see a change).
 */
const isMiddleware = (route: NonNullable<RouteLayer['route']>) => route.stack.every((l) => l.name === 'handler');

/** The methods the application's routes serve at the request's path (with HEAD beside GET), sorted. */
export function allowedMethods(req: Request): string[] {
  const stack = (req.app as unknown as { router?: { stack?: RouteLayer[] } }).router?.stack ?? [];
  const methods = new Set<string>();
  for (const layer of stack) {
    if (!layer.route || isMiddleware(layer.route) || !layer.match(req.path)) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) {
      if (on && method !== '_all') methods.add(method.toUpperCase());
    }
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
