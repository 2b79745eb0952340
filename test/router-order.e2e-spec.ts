import { createTestApp, TestApp } from './support/test-app';

/** What the test reads of an Express router layer. */
interface Layer {
  route?: { methods: Record<string, boolean | undefined>; stack: { name: string }[] };
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

  // Nest's Express adapter names the one handler of a module middleware's route `handler`.
  const isMiddleware = (layer: Layer) => layer.route!.stack.every((h) => h.name === 'handler');
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
});
