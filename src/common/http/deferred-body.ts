import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { from, Observable, switchMap } from 'rxjs';
import { assertSafeInput } from '../validation/input-safety';

/** A request whose body is read only once the guards have admitted it. */
type Deferred = Request & { readDeferredBody?: () => Promise<void> };

/**
 * Leaves a request's body unread, to be read (by `reader`) when the route's ReadDeferredBody interceptor runs:
 * after the guards. On a route that takes large bodies and an API key, the key and both rate-limit budgets are
 * then checked from the headers alone, so a request with a made-up key or a spent budget is refused without
 * its body being buffered or parsed (Node discards the unread bytes).
 */
export function deferBody(reader: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    (req as Deferred).readDeferredBody = () =>
      new Promise<void>((resolve, reject) => reader(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
    next();
  };
}

/** Reads a deferred body (see deferBody) and holds it to the input-safety rules, before the pipes see it. */
@Injectable()
export class ReadDeferredBody implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Deferred>();
    const read = req.readDeferredBody;
    if (!read) return next.handle();
    req.readDeferredBody = undefined;
    return from(
      read().then(() => {
        if (req.body !== undefined) assertSafeInput(req.body);
      }),
    ).pipe(switchMap(() => next.handle()));
  }
}
