import type { Request } from 'express';

/** What the filter needs of an Express router layer: its route's methods and its path matcher. */
interface RouteLayer {
  route?: { methods: Record<string, boolean | undefined>; stack: { name: string }[] };
  match(path: string): unknown;
}

/**
 * Whether an Express route is a module middleware's (`forRoutes({ path, method })`), which serves no resource:
 * Nest's Express adapter names its one handler `handler` (controllers' are anonymous; the 405 e2e specs and the
 * metrics' `unmatched` label would see a change).
 */
export const isModuleMiddleware = (route: { stack: { name: string }[] }): boolean =>
  route.stack.every((l) => l.name === 'handler');

/** The methods the application's routes serve at the request's path (with HEAD beside GET), sorted. */
export function allowedMethods(req: Request): string[] {
  const stack = (req.app as unknown as { router?: { stack?: RouteLayer[] } }).router?.stack ?? [];
  const methods = new Set<string>();
  for (const layer of stack) {
    if (!layer.route || isModuleMiddleware(layer.route) || !layer.match(req.path)) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) {
      if (on && method !== '_all') methods.add(method.toUpperCase());
    }
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
