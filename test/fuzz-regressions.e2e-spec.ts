import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ADMIN_TOKEN, createTestApp, TestApp } from './support/test-app';

/**
 * The exact cases the fuzzer (test/fuzz.e2e-spec.ts) found answering 5xx or a bare status, one test each, so
 * that each fix stays proved even if the fuzzer's generators change.
 */

/** `{"a":{"a":…1…}}` nested `depth` levels, as text. */
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

function expectProblem(
  res: { status: number; headers: Record<string, string>; body: Record<string, unknown> },
  status: number,
) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toContain('application/problem+json');
  expect(res.body).toMatchObject({
    status,
    type: expect.any(String),
    title: expect.any(String),
    code: expect.any(String),
  });
}

/** Sends bytes over a bare socket and returns the status line, the content type and the body. */
function rawRequest(port: number, head: string): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [headPart, body = ''] = data.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d+)/.exec(headPart)?.[1]),
        contentType: /content-type: ([^\r\n]+)/i.exec(headPart)?.[1] ?? '',
        body,
      });
    });
    socket.write(Buffer.from(head, 'latin1'));
  });
}

describe('fuzzer findings, each a regression test', () => {
  let t: TestApp;
  let key: string;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    key = (await t.issueKey(['oak.eth'])).key;
  });
  afterAll(() => t.close());

  it.each([
    ['a batch item that is an array', '/api/v1/subnames/batch', { items: [[]] }, 'items'],
    ['a text record that is an array', '/api/v1/subnames', { parentName: 'oak.eth', label: 'a', texts: [[]] }, 'texts'],
  ])('%s: 400 naming it, not 500', async (_what, path, body, field) => {
    const res = await request(t.http).post(path).set('x-auth-token', key).send(body);
    expectProblem(res, 400);
    expect(res.body.errors).toContainEqual({ field, message: expect.stringContaining('must be an object') });
    expect(await t.dataSource.query('SELECT 1 FROM subnames')).toEqual([]);
  });

  describe('JSON inside a query parameter is checked once parsed', () => {
    it.each([
      ['a NUL', '{"tier":"a\\u0000b"}'],
      ['a lone surrogate', '{"tier":"\\ud800"}'],
      ['a lone surrogate in a key', '{"\\udfff":"x"}'],
    ])('GET /subnames?metadata= with %s: 400 naming the place, not 500', async (_what, json) => {
      const res = await request(t.http).get('/api/v1/subnames').query({ parentName: 'oak.eth', metadata: json });
      expectProblem(res, 400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors[0].field).toMatch(/^metadata\./);
      expect(res.body.errors[0].message).toContain('NUL characters or unpaired UTF-16 surrogates');
    });

    it('metadata JSON nested thousands of levels: 400', async () => {
      const res = await request(t.http)
        .get('/api/v1/subnames')
        .query({ parentName: 'oak.eth', metadata: `{"a":${'['.repeat(2000)}${']'.repeat(2000)}}` });
      expectProblem(res, 400);
      expect(res.body.errors[0].message).toContain('nested deeper than 32 levels');
    });
  });

  describe('bodies nested thousands of levels deep are refused before any recursive code sees them', () => {
    it.each([
      [
        'POST /subnames/search, an unknown field',
        '/api/v1/subnames/search',
        `{"parentName":"oak.eth","x":${deepObject(5000)}}`,
      ],
      [
        'POST /subnames, a known field',
        '/api/v1/subnames',
        `{"parentName":"oak.eth","label":"a","texts":${deepObject(5000)}}`,
      ],
      ['POST /subnames, nested arrays', '/api/v1/subnames', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
    ])('%s: 400, not 500', async (_what, path, body) => {
      const res = await request(t.http)
        .post(path)
        .set('x-auth-token', key)
        .set('content-type', 'application/json')
        .send(body);
      expectProblem(res, 400);
      expect(res.body.errors[0].message).toContain('nested deeper than 32 levels');
    });
  });

  it('a body that claims brotli encoding but is not: 400, not 500', async () => {
    const { id } = await t.issueKey(['oak.eth']);
    const res = await request(t.http)
      .patch(`/api/v1/admin/api-keys/${id}`)
      .set('x-admin-token', ADMIN_TOKEN)
      .set('content-encoding', 'br')
      .set('content-type', 'application/json')
      .send('{}');
    expectProblem(res, 400);
    expect(res.body.detail).toBe('The request body could not be decompressed');
    const post = await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .set('content-encoding', 'br')
      .set('content-type', 'application/json')
      .send('{"parentName":"oak.eth","label":"alice"}');
    expectProblem(post, 400);
    await request(t.http).get('/api/v1/subnames/alice.oak.eth').expect(404);
  });

  describe("requests Node's HTTP parser refuses still get problem JSON", () => {
    it('a space inside the request target: 400 problem JSON', async () => {
      const res = await rawRequest(port, 'GET / api/v1/mint/estimate HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(res.status).toBe(400);
      expect(res.contentType).toBe('application/problem+json');
      expect(JSON.parse(res.body)).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    });

    it('a request target over 16 KB: 431 problem JSON', async () => {
      const res = await rawRequest(
        port,
        `GET /api/v1/mint/signer?isTestnet=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      expect(res.status).toBe(431);
      expect(JSON.parse(res.body)).toMatchObject({ status: 431, code: 'HEADERS_TOO_LARGE' });
    });
  });
});
