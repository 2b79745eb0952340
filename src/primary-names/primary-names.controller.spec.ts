import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { controllerApp } from '../../test/support/controller-app';
import { ChainUnavailableError } from '../chain/chain.errors';
import { SubnameNotFoundError } from '../subnames/subnames.errors';
import { PrimaryNamesController } from './primary-names.controller';
import {
  ForwardMismatchError,
  NotHolderSignatureError,
  PrimaryNameNotFoundError,
  StaleSignatureError,
} from './primary-names.errors';
import { PrimaryNamesService } from './primary-names.service';

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const RESOLVER = '0x8FADE66B79cC9f707aB26799354482EB93a5B7dD';
const SIGNATURE = `0x${'ab'.repeat(65)}`;
const CHOICE = { address: ADDRESS.toLowerCase(), name: 'alice.oak.eth', issuedAt: 1795800000, signature: SIGNATURE };
const CHOSEN = { address: ADDRESS, name: 'alice.oak.eth', verified: true };

describe(PrimaryNamesController.name, () => {
  let app: NestExpressApplication;
  const primaryNames = { choose: jest.fn(), findOrFail: jest.fn(), setup: jest.fn() };

  beforeAll(async () => {
    app = await controllerApp([PrimaryNamesController], [{ provide: PrimaryNamesService, useValue: primaryNames }]);
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  const choose = (body: object) => request(app.getHttpServer()).post('/api/v1/primary-names').send(body);
  const get = (path: string) => request(app.getHttpServer()).get(`/api/v1/primary-names/${path}`);
  const fields = (res: request.Response) => res.body.errors.map((e: { field: string }) => e.field).sort();

  it('POST: 200 with the choice, no key; the address checksummed and the request id handed over', async () => {
    primaryNames.choose.mockResolvedValue(CHOSEN);
    const res = await choose(CHOICE).set('x-request-id', 'req-1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(CHOSEN);
    expect(primaryNames.choose).toHaveBeenCalledWith({ ...CHOICE, address: ADDRESS }, 'req-1');
  });

  it('POST clearing the choice with an empty name: 200, the empty name handed over', async () => {
    primaryNames.choose.mockResolvedValue({ ...CHOSEN, name: '', verified: false });
    const res = await choose({ ...CHOICE, name: '' });
    expect(res.status).toBe(200);
    expect(primaryNames.choose.mock.calls[0][0]).toMatchObject({ name: '' });
  });

  it('POST with a bad body: 400 naming each field (a name not normalised as signed included), the service untouched', async () => {
    const res = await choose({ address: '0x12', name: 'Alice.oak.eth', issuedAt: 1.5, signature: '0x' });
    expect(res.status).toBe(400);
    expect(fields(res)).toEqual(['address', 'issuedAt', 'name', 'signature']);
    expect(res.body.errors.find((e: { field: string }) => e.field === 'name').message).toBe(
      'must be ENSIP-15 normalised, as signed: alice.oak.eth',
    );
    expect(fields(await choose({ ...CHOICE, extra: true }))).toEqual(['extra']);
    expect(primaryNames.choose).not.toHaveBeenCalled();
  });

  it.each([
    [new NotHolderSignatureError(ADDRESS), 401, 'UNAUTHORIZED'],
    [new SubnameNotFoundError('alice.oak.eth'), 404, 'SUBNAME_NOT_FOUND'],
    [new ForwardMismatchError('alice.oak.eth', ADDRESS, null), 409, 'FORWARD_MISMATCH'],
    [new StaleSignatureError('issuedAt is more than 10 minutes old'), 409, 'STALE_SIGNATURE'],
    [new ChainUnavailableError('the chain could not be read'), 503, 'CHAIN_UNAVAILABLE'],
  ])('POST: the service refusing with %p is a %i %s problem', async (error, status, code) => {
    primaryNames.choose.mockRejectedValue(error);
    const res = await choose(CHOICE);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code, status, detail: error.detail });
  });

  it('GET /:address: 200 with the choice for the checksummed address; none chosen is a 404 NOT_FOUND problem', async () => {
    primaryNames.findOrFail.mockResolvedValueOnce(CHOSEN);
    const res = await get(ADDRESS.toLowerCase());
    expect(res.status).toBe(200);
    expect(res.body).toEqual(CHOSEN);
    expect(primaryNames.findOrFail).toHaveBeenCalledWith(ADDRESS);

    primaryNames.findOrFail.mockRejectedValueOnce(new PrimaryNameNotFoundError(ADDRESS));
    const none = await get(ADDRESS);
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ code: 'NOT_FOUND', detail: `${ADDRESS} has no primary name chosen here` });
  });

  it('GET /:address/setup: 200 with the unsigned transaction, both addresses checksummed', async () => {
    const tx = { to: '0xa58E81fe9b61B5c3fE2AFD33CF304c454AbFc7Cb', data: '0x1234', chainId: 1, note: 'points it' };
    primaryNames.setup.mockReturnValue(tx);
    const res = await get(`${ADDRESS.toLowerCase()}/setup?resolver=${RESOLVER.toLowerCase()}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(tx);
    expect(primaryNames.setup).toHaveBeenCalledWith(ADDRESS, RESOLVER);
  });

  it('GET with a bad address, or setup without a resolver: 400 naming the field, the service untouched', async () => {
    expect(fields(await get('alice.oak.eth'))).toEqual(['address']);
    expect(fields(await get(`0x12/setup?resolver=${RESOLVER}`))).toEqual(['address']);
    const noResolver = await get(`${ADDRESS}/setup`);
    expect(noResolver.status).toBe(400);
    expect(fields(noResolver)).toEqual(['resolver']);
    expect(primaryNames.findOrFail).not.toHaveBeenCalled();
    expect(primaryNames.setup).not.toHaveBeenCalled();
  });
});
