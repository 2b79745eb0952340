import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Several middlewares as one: each runs when the one before calls next(), and an error (passed to next, thrown,
 * or a returned promise's rejection) skips the rest to Express's error handlers, as consecutive app.use() calls
 * would in Express 5, without a router layer (and its path matching) per middleware on every request.
 */
export function inOrder(handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) return next(err);
      if (i === handlers.length) return next();
      const handler = handlers[i++];
      let result: unknown;
      try {
        result = handler(req, res, step);
      } catch (e) {
        return next(e);
      }
      // Express 5's router does the same with an async middleware's rejection.
      if (isThenable(result)) result.then(undefined, (e: unknown) => next(e ?? new Error('Rejected promise')));
    };
    step();
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
