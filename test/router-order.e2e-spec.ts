import request from 'supertest';
import { isModuleMiddleware } from '../src/common/http/allowed-methods';
import { createTestApp, TestApp } from './support/test-app';

/** What the test reads of an Express router layer. */
interface Layer {
  route?: { path: string; methods: Record<string, boolean | undefined>; stack: { name: string }[] };
  match(path: string): boolean;
}

// Express tries its layers in order, matching each one's path, until a route serves the request: every layer before
// the busiest routes is paid on every lookup, read and mint (bench/RESULTS.md, 2026-11-28).
describe('the router reaches the busiest routes first', () => {
  let t: TestApp;
  let stack: Layer[];

  beforeAll(async () => {
    t = await createTestApp();
    stack = (t.app.getHttpAdapter().getInstance() as unknown as { router: { stack: Layer[] } }).router.stack;
  });
  afterAll(() => t.close());

  const isMiddleware = (layer: Layer) => isModuleMiddleware(layer.route!);
  const serves = (layer: Layer, method: string, path: string) =>
    layer.route !== undefined && layer.route.methods[method] === true && layer.match(path);
  /** The position of the controller route that serves the request. */
  const routeAt = (method: string, path: string) =>
    stack.findIndex((layer) => serves(layer, method, path) && !isMiddleware(layer));
  /** The module middleware the request enters on its way. */
  const middlewareOf = (method: string, path: string) =>
    stack.filter(
      (layer) =>
        layer.route !== undefined &&
        isMiddleware(layer) &&
        layer.match(path) &&
        (layer.route.methods[method] || layer.route.methods._all),
    );

  const sender = '0x8464135c8f25da09e49bc8782676a84730c318bc';
  const busiest: [string, string][] = [
    ['get', `/api/v1/ccip-read/${sender}/0x9061b923.json`],
    ['get', '/api/v1/subnames/alice.oak.eth'],
    ['post', '/api/v1/subnames'],
    ['post', '/api/v1/mint'],
  ];
  const others: [string, string][] = [
    ['get', '/api/v1/quota'],
    ['get', '/api/v1/admin/audit'],
    ['get', '/api/v1/admin/listings'],
    ['get', `/api/v1/primary-names/${sender}`],
    ['post', '/api/v1/holder/records'],
    ['get', '/api/v1/policies/oak.eth'],
    ['get', '/portal/api/me'],
    ['get', '/'],
  ];

  it.each(busiest)('%s %s is served before any route of the other modules', (method, path) => {
    const at = routeAt(method, path);
    expect(at).toBeGreaterThan(0);
    for (const [m, p] of others) expect(routeAt(m, p)).toBeGreaterThan(at);
  });

  it('a lookup enters no module middleware; the reads of subnames one layer together (a layer per module, not per route)', () => {
    expect(middlewareOf('get', busiest[0][1])).toHaveLength(0);
    const reads = ['/api/v1/subnames', '/api/v1/subnames/alice.oak.eth', '/api/v1/subnames/export'];
    expect(new Set(reads.flatMap((path) => middlewareOf('get', path))).size).toBe(1);
  });

  // A layer whose path matches decodes the request's path into parameters before its method is compared: a lookup's
  // 500 characters of calldata cost 3.5 µs a layer (bench/RESULTS.md, 2026-11-28 afternoon).
  it("no module middleware's path matches a lookup, whatever its method", () => {
    const matching = stack.filter((layer) => layer.route && isMiddleware(layer) && layer.match(busiest[0][1]));
    expect(matching.map((layer) => layer.route!.path)).toEqual([]);
  });

  /** Every API route that takes a body (the batch reads its own after its guards), with a path it serves. */
  const bodyRoutes = () =>
    stack
      .filter((layer) => layer.route && !isMiddleware(layer) && layer.route.path.startsWith('/api/v1/'))
      .flatMap((layer) =>
        (['post', 'put', 'patch', 'delete'] as const)
          .filter((method) => layer.route!.methods[method])
          .map((method) => [method, layer.route!.path.replace(/:\w+/g, 'x.eth')] as const),
      )
      .filter(([method, path]) => !(method === 'post' && path === '/api/v1/subnames/batch'));

  it('every API route that takes a body reads it before its guards: malformed JSON is 400 without a key', async () => {
    const routes = bodyRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(23);
    for (const [method, path] of routes) {
      const res = await request(t.http)[method](path).set('content-type', 'application/json').send('{"a":');
      expect({ method, path, status: res.status, detail: res.body.detail }).toEqual({
        method,
        path,
        status: 400,
        detail: 'The request body is not valid JSON',
      });
    }
  });
});
