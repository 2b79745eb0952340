import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { controllerApp } from '../../test/support/controller-app';
import { ValidationFailedError } from '../common/errors';
import { UnsupportedResolverCallError } from './resolution.errors';
import { ResolutionController } from './resolution.controller';
import { GatewayAnswer, ResolutionService } from './resolution.service';

const SENDER = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
const DATA = '0x9061b923abcd';
const NODES = ['0x5d57', '0x437e'];
const ANSWER: GatewayAnswer = {
  data: '0x0123',
  notModified: false,
  etag: '"kX1tq3nUOj0Dbm5T3dN2fZqk9Xh"',
  maxAgeSeconds: 120,
  sharedMaxAgeSeconds: 30,
  nodes: NODES,
};

describe(ResolutionController.name, () => {
  let app: NestExpressApplication;
  const resolution = { signer: jest.fn(), resolve: jest.fn() };

  beforeAll(async () => {
    app = await controllerApp([ResolutionController], [{ provide: ResolutionService, useValue: resolution }]);
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  const get = (path: string) => request(app.getHttpServer()).get(`/api/v1/ccip-read/${path}`);
  const post = (body: object) => request(app.getHttpServer()).post('/api/v1/ccip-read').send(body);
  const fields = (res: { body: { errors: { field: string }[] } }) => res.body.errors.map((e) => e.field).sort();

  it("GET /ccip-read/signer: 200 with the service's signer, no key", async () => {
    const signer = { address: SENDER, signatureTtlSeconds: 300, urlTemplate: null };
    resolution.signer.mockReturnValue(signer);
    const res = await get('signer');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(signer);
  });

  it('GET /ccip-read/:sender/:data(.json): 200 with the signed data and the cache headers of the answer', async () => {
    resolution.resolve.mockResolvedValue(ANSWER);
    for (const path of [`${SENDER}/${DATA}.json`, `${SENDER}/${DATA}`]) {
      const res = await get(path).set('If-None-Match', '"other"');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: '0x0123' });
      expect(res.headers).toMatchObject({
        'cache-control': 'public, max-age=120, s-maxage=30, stale-if-error=30',
        etag: ANSWER.etag,
        'surrogate-key': '0x5d57 0x437e',
        'cache-tag': '0x5d57,0x437e',
        'access-control-allow-origin': '*',
      });
    }
    expect(resolution.resolve.mock.calls).toEqual([
      [SENDER, DATA, '"other"'],
      [SENDER, DATA, '"other"'],
    ]);
  });

  it('GET: 304 without a body when the service finds the client copy current, with the same headers', async () => {
    resolution.resolve.mockResolvedValue({ ...ANSWER, data: '', notModified: true });
    const res = await get(`${SENDER}/${DATA}.json`).set('If-None-Match', ANSWER.etag);
    expect(res.status).toBe(304);
    expect(res.text).toBe('');
    expect(res.headers.etag).toBe(ANSWER.etag);
    expect(res.headers['surrogate-key']).toBe('0x5d57 0x437e');
  });

  it('POST /ccip-read: 200 (not 201) with the data; Cache-Control for clients only, no surrogate keys', async () => {
    resolution.resolve.mockResolvedValue(ANSWER);
    const res = await post({ sender: SENDER.toLowerCase(), data: DATA });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: '0x0123' });
    expect(res.headers['cache-control']).toBe('public, max-age=120');
    expect(res.headers.etag).toBe(ANSWER.etag);
    expect(res.headers['surrogate-key']).toBeUndefined();
    expect(resolution.resolve).toHaveBeenCalledWith(SENDER.toLowerCase(), DATA);
  });

  it('a bad sender or data: 400 naming each field, by GET and by POST, the service untouched', async () => {
    const bad = await get('0x1234/0xabc.json');
    expect(bad.status).toBe(400);
    expect(bad.headers['access-control-allow-origin']).toBe('*');
    expect(fields(bad)).toEqual(['data', 'sender']);
    expect(fields(await post({ sender: SENDER }))).toEqual(['data']);
    expect(fields(await post({ sender: SENDER, data: 7 }))).toEqual(['data']);
    expect(fields(await post({ sender: SENDER, data: DATA, extra: 1 }))).toEqual(['extra']);
    expect(resolution.resolve).not.toHaveBeenCalled();
  });

  it.each([
    [new ValidationFailedError([{ field: 'data.name', message: 'is not a DNS-encoded name' }]), 'VALIDATION_FAILED'],
    [new UnsupportedResolverCallError('data.call', 'pubkey (0xc8690233) is not answered'), 'UNSUPPORTED_RESOLVER_CALL'],
  ])('calldata the service refuses with %p: 400 %s naming the part', async (error, code) => {
    resolution.resolve.mockRejectedValue(error);
    const res = await get(`${SENDER}/${DATA}.json`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code, errors: error.errors });
  });

  it('OPTIONS: the CORS preflight of any origin, 204, before the controller', async () => {
    const res = await request(app.getHttpServer())
      .options('/api/v1/ccip-read')
      .set('Origin', 'https://app.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST');
    expect(resolution.resolve).not.toHaveBeenCalled();
  });
});
