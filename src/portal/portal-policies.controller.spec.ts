import type { NestExpressApplication } from '@nestjs/platform-express';
import { controllerApp } from '../../test/support/controller-app';
import { anonymous, asWallet, portalProviders, WALLET } from '../../test/support/portal-session';
import { ChainUnavailableError } from '../chain/chain.errors';
import { PolicyNotFoundError } from '../holders/holders.errors';
import { PortalPoliciesController } from './portal-policies.controller';
import { PortalPoliciesService } from './portal-policies.service';
import { NoKeyForNameError, NotNameControllerError } from './portal.errors';

const PATH = '/portal/api/names/oak.eth/policy';
const POLICY = { parentName: 'oak.eth', claims: 'open', allowlist: [], allowlistSize: 0, claimsPerAddress: 1 };

describe(PortalPoliciesController.name, () => {
  let app: NestExpressApplication;
  const policies = { find: jest.fn(), put: jest.fn() };

  beforeAll(async () => {
    app = await controllerApp(
      [PortalPoliciesController],
      [{ provide: PortalPoliciesService, useValue: policies }, ...portalProviders()],
    );
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  const put = (body: object, path = PATH) => asWallet(app, 'put', path).send(body);

  it('GET and PUT: 401 UNAUTHORIZED without a session; PUT without the CSRF token is 403 CROSS_SITE_REQUEST', async () => {
    for (const method of ['get', 'put'] as const) {
      const res = await anonymous(app, method, PATH).send({ claims: 'open' });
      expect(res.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    }
    const forged = await put({ claims: 'open' }).set('Origin', 'https://evil.example');
    expect(forged.body).toMatchObject({ status: 403, code: 'CROSS_SITE_REQUEST' });
    expect(policies.find).not.toHaveBeenCalled();
    expect(policies.put).not.toHaveBeenCalled();
  });

  it('GET: 200 with the policy, asked for the wallet and the normalised name; a bad name is 400', async () => {
    policies.find.mockResolvedValue(POLICY);
    const res = await asWallet(app, 'get', '/portal/api/names/Oak.ETH/policy');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(POLICY);
    expect(policies.find).toHaveBeenCalledWith(WALLET, 'oak.eth');

    const bad = await asWallet(app, 'get', '/portal/api/names/eth/policy');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('name');
    expect(policies.find).toHaveBeenCalledTimes(1);
  });

  it.each([
    [new PolicyNotFoundError('oak.eth'), 404, 'POLICY_NOT_FOUND'],
    [new NotNameControllerError('oak.eth is controlled by 0x1234'), 403, 'NOT_NAME_CONTROLLER'],
    [new ChainUnavailableError('the chain could not be read'), 503, 'CHAIN_UNAVAILABLE'],
  ])('GET: the service refusing with %p is a %i %s problem', async (error, status, code) => {
    policies.find.mockRejectedValue(error);
    const res = await asWallet(app, 'get', PATH);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code, status, detail: error.detail });
  });

  it('PUT: 200 with the policy; the body normalised (addresses checksummed, labels normalised) and the request id', async () => {
    policies.put.mockResolvedValue(POLICY);
    const res = await put({
      claims: 'allowlist',
      allowlist: [WALLET.address.toLowerCase()],
      labels: { reserved: ['Admin'] },
    }).set('x-request-id', 'req-1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(POLICY);
    const [wallet, name, dto, requestId] = policies.put.mock.calls[0];
    expect([wallet, name, requestId]).toEqual([WALLET, 'oak.eth', 'req-1']);
    expect(dto).toMatchObject({ claims: 'allowlist', allowlist: [WALLET.address], labels: { reserved: ['admin'] } });
  });

  it('PUT with a bad body: 400 naming each field, the service untouched', async () => {
    const noList = await put({ claims: 'allowlist' });
    expect(noList.status).toBe(400);
    expect(noList.body.errors).toEqual([{ field: 'allowlist', message: expect.stringContaining('required') }]);
    const bad = await put({ claims: 'sometimes', claimsPerAddress: 0, transfers: 'yes', color: 'red' });
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'claims',
      'claimsPerAddress',
      'color',
      'transfers',
    ]);
    expect(policies.put).not.toHaveBeenCalled();
  });

  it('PUT without a live key of the wallet covering the name: 403 FORBIDDEN_PARENT problem', async () => {
    policies.put.mockRejectedValue(new NoKeyForNameError('oak.eth'));
    const res = await put({ claims: 'open' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'FORBIDDEN_PARENT', detail: expect.stringContaining('oak.eth') });
  });
});
