import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Several middlewares as one: each runs when the one before calls next(), and an error skips the rest (to
 * Express's error handlers), as consecutive app.use() calls would, without a router layer (and its path
 * matching) per middleware on every request.
 */
export function inOrder(handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) return next(err);
      if (i === handlers.length) return next();
      const handler = handlers[i++];
      try {
        void handler(req, res, step);
      } catch (e) {
        next(e);
      }
    };
    step();
  };
}
