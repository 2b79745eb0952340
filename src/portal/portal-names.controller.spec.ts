import type { NestExpressApplication } from '@nestjs/platform-express';
import { controllerApp } from '../../test/support/controller-app';
import { anonymous, asWallet, portalProviders, WALLET } from '../../test/support/portal-session';
import { ChainUnavailableError } from '../chain/chain.errors';
import { PortalNamesController } from './portal-names.controller';
import { PortalNamesService } from './portal-names.service';
import { NotNameControllerError } from './portal.errors';

const ME = { address: WALLET.address, csrfToken: WALLET.csrfToken, admin: false, names: [] };
const PAGE = { items: [{ fullName: 'beta.maple.eth' }], page: 2, size: 10, totalItems: 11 };

async function* lines(...items: object[]): AsyncIterable<string> {
  for (const item of items) yield `${JSON.stringify(item)}\n`;
}

describe(PortalNamesController.name, () => {
  let app: NestExpressApplication;
  const names = { me: jest.fn(), add: jest.fn(), subnamesOf: jest.fn(), exportOf: jest.fn(), resolution: jest.fn() };

  beforeAll(async () => {
    app = await controllerApp(
      [PortalNamesController],
      [{ provide: PortalNamesService, useValue: names }, ...portalProviders()],
    );
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  const addName = (body: object) => asWallet(app, 'post', '/portal/api/names').send(body);

  it('every route: 401 UNAUTHORIZED without a session, before the body or the query is looked at', async () => {
    const routes = [
      ['get', '/portal/api/me'],
      ['post', '/portal/api/names'],
      ['get', '/portal/api/subnames?parentName=maple.eth'],
      ['get', '/portal/api/export?parentName=maple.eth'],
      ['get', '/portal/api/names/maple.eth/resolution'],
    ] as const;
    for (const [method, path] of routes) {
      const res = await anonymous(app, method, path, 'made-up');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    }
    const invalid = await anonymous(app, 'post', '/portal/api/names').send({ name: 'not a name' });
    expect(invalid.body.code).toBe('UNAUTHORIZED');
    for (const fn of Object.values(names)) expect(fn).not.toHaveBeenCalled();
  });

  it('GET /me: 200 with the wallet, never stored; no CSRF token needed to read', async () => {
    names.me.mockResolvedValue(ME);
    const res = await asWallet(app, 'get', '/portal/api/me');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual(ME);
    expect(names.me).toHaveBeenCalledWith(WALLET);
  });

  it('POST /names: 200 with the role, the name normalised; 403 CROSS_SITE_REQUEST without the CSRF token', async () => {
    names.add.mockResolvedValue({ name: 'oak.eth', role: 'manager', wrapped: false });
    const res = await addName({ name: 'OAK.eth' }).set('x-request-id', 'req-1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'oak.eth', role: 'manager', wrapped: false });
    expect(names.add).toHaveBeenCalledWith(WALLET, 'oak.eth', 'req-1');

    const forged = await addName({ name: 'oak.eth' }).unset('x-portal-csrf');
    expect(forged.body).toMatchObject({ status: 403, code: 'CROSS_SITE_REQUEST' });
    expect(names.add).toHaveBeenCalledTimes(1);
  });

  it('POST /names with a name of one label or not ENS: 400 naming name, the service untouched', async () => {
    for (const name of ['eth', 'a b.eth', 42]) {
      const res = await addName({ name });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['name']);
    }
    expect(names.add).not.toHaveBeenCalled();
  });

  it.each([
    [new NotNameControllerError('oak.eth is controlled by 0x1234'), 403, 'NOT_NAME_CONTROLLER'],
    [new ChainUnavailableError('no chain is configured'), 503, 'CHAIN_UNAVAILABLE'],
  ])('POST /names: the service refusing with %p is a %i %s problem', async (error, status, code) => {
    names.add.mockRejectedValue(error);
    const res = await addName({ name: 'oak.eth' });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code, status, detail: error.detail });
  });

  it('GET /subnames: 200 with the page, the query normalised and typed; a filter outside the four is 400', async () => {
    names.subnamesOf.mockResolvedValue(PAGE);
    const res = await asWallet(app, 'get', '/portal/api/subnames?parentName=Maple.eth&labelSearch=bet&page=2&size=10');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(PAGE);
    expect(names.subnamesOf).toHaveBeenCalledWith(
      WALLET,
      expect.objectContaining({ parentName: 'maple.eth', labelSearch: 'bet', page: 2, size: 10 }),
    );

    const bad = await asWallet(app, 'get', '/portal/api/subnames?parentName=maple.eth&owner=0x12&size=1000');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['owner', 'size']);
    expect(names.subnamesOf).toHaveBeenCalledTimes(1);
  });

  it('GET /export: 200 NDJSON streamed from the service, never stored; parentName required', async () => {
    names.exportOf.mockResolvedValue(lines({ label: 'alpha' }, { label: 'beta' }));
    const res = await asWallet(app, 'get', '/portal/api/export?parentName=maple.eth');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toBe('{"label":"alpha"}\n{"label":"beta"}\n');
    expect(names.exportOf).toHaveBeenCalledWith(WALLET, 'maple.eth');

    const missing = await asWallet(app, 'get', '/portal/api/export');
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toEqual(['parentName']);
  });

  it('GET /export of a parent the wallet does not control: 403 NOT_NAME_CONTROLLER as problem JSON, not NDJSON', async () => {
    names.exportOf.mockRejectedValue(new NotNameControllerError('maple.eth is controlled by 0x1234'));
    const res = await asWallet(app, 'get', '/portal/api/export?parentName=maple.eth');
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('NOT_NAME_CONTROLLER');
  });

  it('GET /names/:name/resolution: 200 with the steps for the normalised name; a bad name is 400', async () => {
    const status = { parentName: 'maple.eth', ok: false, steps: [{ step: 'registry', ok: false, detail: 'x' }] };
    names.resolution.mockResolvedValue(status);
    const res = await asWallet(app, 'get', '/portal/api/names/Maple.eth/resolution');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(status);
    expect(names.resolution).toHaveBeenCalledWith('maple.eth');

    const bad = await asWallet(app, 'get', '/portal/api/names/eth/resolution');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('name');
    expect(names.resolution).toHaveBeenCalledTimes(1);
  });
});
