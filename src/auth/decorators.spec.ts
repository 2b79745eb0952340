import { Reflector } from '@nestjs/core';
import { AdminAuth, ApiKeyAuth, KEYED_ROUTE } from './decorators';

class Keyed {
  @ApiKeyAuth()
  write(): void {}

  @AdminAuth()
  administer(): void {}

  read(): void {}
}

@ApiKeyAuth()
class KeyedController {
  list(): void {}
}

describe('ApiKeyAuth', () => {
  const reflector = new Reflector();
  const keyed = (handler: () => void, target: new () => object) =>
    reflector.getAllAndOverride<boolean>(KEYED_ROUTE, [handler, target]);

  it('marks the route it decorates, method or controller, as keyed', () => {
    expect(keyed(Keyed.prototype.write, Keyed)).toBe(true);
    expect(keyed(KeyedController.prototype.list, KeyedController)).toBe(true);
  });

  it('leaves other routes, admin ones included, unmarked', () => {
    expect(keyed(Keyed.prototype.administer, Keyed)).toBeUndefined();
    expect(keyed(Keyed.prototype.read, Keyed)).toBeUndefined();
  });
});
