import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import request from 'supertest';
import { inOrder } from './in-order';

/** The same middlewares mounted one by one and through inOrder answer alike. */
function apps(handlers: RequestHandler[]) {
  const build = (mount: (app: express.Express) => void) => {
    const app = express();
    mount(app);
    app.get('/{*path}', (req, res) => {
      res.json({ seen: (req as Request & { seen?: string[] }).seen ?? [] });
    });
    app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => {
      res.status(418).json({ error: err.message });
    });
    return app;
  };
  return [build((app) => handlers.forEach((h) => app.use(h))), build((app) => app.use(inOrder(handlers)))];
}

const mark =
  (name: string): RequestHandler =>
  (req, _res, next) => {
    const r = req as Request & { seen?: string[] };
    (r.seen ??= []).push(name);
    next();
  };

describe(inOrder.name, () => {
  it.each<[string, RequestHandler[]]>([
    ['every middleware in turn', [mark('a'), mark('b'), mark('c')]],
    ['an error passed to next skips the rest', [mark('a'), (_q, _s, next) => next(new Error('no')), mark('c')]],
    [
      'a thrown error skips the rest',
      [
        mark('a'),
        () => {
          throw new Error('thrown');
        },
        mark('c'),
      ],
    ],
    [
      'a middleware that answers ends the chain',
      [
        mark('a'),
        (_q, res) => {
          res.status(204).end();
        },
        mark('c'),
      ],
    ],
    ['next called later (asynchronously)', [mark('a'), (_q, _s, next) => void setTimeout(next, 5), mark('b')]],
    [
      'an async middleware that rejects skips the rest',
      [mark('a'), () => Promise.reject(new Error('rejected')), mark('c')] as RequestHandler[],
    ],
    [
      'an async middleware that rejects with nothing',
      [mark('a'), () => Promise.reject(undefined), mark('c')] as RequestHandler[],
    ],
    ['an async middleware that resolves and calls next', [mark('a'), async (_q, _s, next) => next(), mark('b')]],
    ['no middleware at all', []],
  ])('%s: the same answer as separate app.use calls', async (_, handlers) => {
    const [separate, combined] = apps(handlers);
    const a = await request(separate).get('/x').timeout(2_000);
    const b = await request(combined).get('/x').timeout(2_000);
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
  });

  it('answers through the error handler, not by hanging, when an async middleware rejects', async () => {
    const [, combined] = apps([mark('a'), async () => Promise.reject(new Error('db down')), mark('c')]);
    const res = await request(combined).get('/x').timeout(2_000);
    expect(res.status).toBe(418);
    expect(res.body).toEqual({ error: 'db down' });
  });
});
