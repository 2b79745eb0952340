import express, { type Request, type RequestHandler } from 'express';
import { allowedMethods } from './allowed-methods';

describe(allowedMethods.name, () => {
  const app = express();
  app.get('/api/v1/subnames/:fullName', (_req, res) => res.end());
  app.delete('/api/v1/subnames/:fullName', (_req, res) => res.end());
  // What Nest's Express adapter registers for `forRoutes({ path: '{*path}', method: RequestMethod.POST })`, for
  // `forRoutes({ path: 'subnames/:fullName', method: RequestMethod.DELETE })` and for
  // `forRoutes({ path: 'subnames{/*path}', method: RequestMethod.ALL })`.
  const handler: RequestHandler = (_req, _res, next) => next();
  app.post('/{*path}', handler);
  app.delete('/api/v1/subnames/:fullName', handler);
  app.all('/api/v1/subnames{/*path}', handler);
  const at = (path: string) => allowedMethods({ app, path } as unknown as Request);

  it("names the methods of the routes serving the path, HEAD beside GET, and not the every-path middleware's", () => {
    expect(at('/api/v1/subnames/alice.oak.eth')).toEqual(['DELETE', 'GET', 'HEAD']);
  });

  it('names none for a path no route serves, though the every-path middleware matches it', () => {
    expect(at('/api/v1/nothing')).toEqual([]);
  });
});
