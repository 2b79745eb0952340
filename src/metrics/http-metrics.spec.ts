import type { Request } from 'express';
import { routeOf } from './http-metrics';

describe(routeOf.name, () => {
  const at = (path?: string) => routeOf({ route: path === undefined ? undefined : { path } } as unknown as Request);

  it("names a controller route's template", () => {
    expect(at('/api/v1/subnames/:fullName')).toBe('/api/v1/subnames/:fullName');
    expect(at('/api/v1/ccip-read/:sender/:data.json')).toBe('/api/v1/ccip-read/:sender/:data.json');
  });

  it.each(['/api/v1/subnames{/*path}', '/portal/api/{*path}', '/{*path}'])(
    "reads a module middleware's wildcard route (%s) as unmatched",
    (path) => expect(at(path)).toBe('unmatched'),
  );

  it("reads a module middleware's named route, which a refused body ends on, as unmatched", () => {
    const reader = { path: '/api/v1/subnames', stack: [{ name: 'handler' }] };
    const controller = { path: '/api/v1/subnames', stack: [{ name: '' }] };
    expect(routeOf({ route: reader } as unknown as Request)).toBe('unmatched');
    expect(routeOf({ route: controller } as unknown as Request)).toBe('/api/v1/subnames');
  });

  it('reads a request no route took as unmatched', () => expect(at()).toBe('unmatched'));
});
