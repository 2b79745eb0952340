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
    ['no middleware at all', []],
  ])('%s: the same answer as separate app.use calls', async (_, handlers) => {
    const [separate, combined] = apps(handlers);
    const a = await request(separate).get('/x');
    const b = await request(combined).get('/x');
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
  });
});
