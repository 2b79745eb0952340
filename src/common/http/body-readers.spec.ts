import express, { NextFunction, Request, Response } from 'express';
import request from 'supertest';
import { ValidationFailedError } from '../errors';
import { jsonReader, readBodyFirst } from './body-readers';

/**
 * An app whose one middleware is `readBodyFirst`: what reached the route (the body), or what the middleware's
 * promise rejected with (as Nest's middleware proxy would hand it to the exception filters), or that it called
 * next with an error (which it must not).
 */
function app(limit = 64) {
  const read = readBodyFirst(jsonReader(limit));
  const server = express();
  server.use((req: Request, res: Response, next: NextFunction) => {
    let returned = false;
    const passed = read(req, res, (err?: unknown) => {
      if (err) return res.status(500).json({ next: String(err) });
      res.setHeader('x-passed-before-return', String(!returned));
      next();
    });
    returned = true;
    if (passed instanceof Promise) {
      passed.catch((e: { status?: number; type?: string }) =>
        res.status(599).json({
          rejected: e instanceof ValidationFailedError ? e.errors : { status: e.status, type: e.type },
        }),
      );
    }
  });
  server.all('/{*path}', (req, res) => res.json({ body: req.body as unknown }));
  return server;
}

describe(readBodyFirst.name, () => {
  it('passes a parsed body on; a request without one passes synchronously', async () => {
    const posted = await request(app()).post('/x').send({ a: 1 }).expect(200);
    expect(posted.body).toEqual({ body: { a: 1 } });
    expect(posted.headers['x-passed-before-return']).toBe('false');
    const read = await request(app()).get('/x').expect(200);
    expect(read.body).toEqual({});
    expect(read.headers['x-passed-before-return']).toBe('true');
  });

  it('rejects a body past the limit, or not JSON, with the reader error (never through next)', async () => {
    const big = await request(app(16))
      .post('/x')
      .send({ a: 'x'.repeat(20) })
      .expect(599);
    expect(big.body).toEqual({ rejected: { status: 413, type: 'entity.too.large' } });
    const bad = await request(app()).post('/x').set('content-type', 'application/json').send('{"a":').expect(599);
    expect(bad.body).toEqual({ rejected: { status: 400, type: 'entity.parse.failed' } });
  });

  it('holds a read body to the input-safety rules', async () => {
    const res = await request(app())
      .post('/x')
      .set('content-type', 'application/json')
      .send('{"a":{"__proto__":1}}')
      .expect(599);
    expect(res.body).toEqual({ rejected: [{ field: 'a.__proto__', message: 'is not an accepted field' }] });
  });

  it("runs a precheck on the raw text before parsing: its refusal is the reader's error, even for a text that is no JSON", async () => {
    const refuseLong = (text: string) => {
      if (text.length > 10) throw new ValidationFailedError([{ field: 'items', message: 'too many' }]);
    };
    const server = express();
    server.use(readBodyFirst(jsonReader(64, refuseLong)));
    server.all('/{*path}', (req, res) => res.json({ body: req.body as unknown }));
    server.use((err: unknown, _req: Request, res: Response, _next: NextFunction) =>
      res.status(599).json({ rejected: err instanceof ValidationFailedError ? err.errors : String(err) }),
    );
    const refused = await request(server)
      .post('/x')
      .set('content-type', 'application/json')
      .send('{"items":[1,2,3,')
      .expect(599);
    expect(refused.body).toEqual({ rejected: [{ field: 'items', message: 'too many' }] });
    const passed = await request(server).post('/x').send({ a: 1 }).expect(200);
    expect(passed.body).toEqual({ body: { a: 1 } });
  });
});
