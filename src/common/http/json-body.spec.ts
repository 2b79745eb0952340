import { once } from 'node:events';
import { AddressInfo } from 'node:net';
import { Server } from 'node:http';
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import fc from 'fast-check';
import { jsonBody, parseStrictJson } from './json-body';
import { runs } from '../../../test/support/property-runs';

const LIMIT = 2048;
const bodyParser = () => express.json({ limit: LIMIT, strict: true, type: ['application/json', 'application/*+json'] });

/** A server that answers what a reader made of a request: the body it parsed, or the error's client-facing part. */
async function serve(reader: RequestHandler): Promise<{ server: Server; port: number }> {
  const app = express();
  app.use(reader);
  app.all('/{*path}', (req, res) => {
    res.json({ bodyPresent: 'body' in req, body: req.body as unknown });
  });
  app.use(
    (err: { status?: number; expose?: boolean; type?: string }, _req: Request, res: Response, _n: NextFunction) => {
      res.status(599).json({ status: err.status, expose: err.expose, type: err.type });
    },
  );
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}

interface Sent {
  method?: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** Sends raw bytes with exactly the headers given (no content-type or length added). */
function send(port: number, { method = 'POST', headers, body }: Sent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: '/x', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const contentTypes = fc.constantFrom(
  'application/json',
  'APPLICATION/JSON',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'application/json; charset="utf-8"',
  'application/json ; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/vnd.api+json',
  'text/plain',
  'application/jsonx',
  undefined,
);

const texts = fc.oneof(
  fc.json().map((t) => Buffer.from(t)),
  fc.jsonValue().map((v) => Buffer.from(JSON.stringify({ v }))),
  fc.tuple(fc.constantFrom(' ', '\n\t ', '\r\n'), fc.json()).map(([ws, t]) => Buffer.from(ws + t)),
  fc.json().map((t) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(t)])),
  fc.json().map((t) => Buffer.from(t.slice(0, Math.max(0, t.length - 1)))),
  fc
    .uint8Array({ maxLength: 40 })
    .map((b) => Buffer.concat([Buffer.from('{"a":"'), Buffer.from(b), Buffer.from('"}')])),
  fc
    .constantFrom('', ' ', '\ufeff', 'null', 'true', '"x"', '12', '{', '[1,]', '{"a":1}x', '\u2028{}')
    .map((t) => Buffer.from(t)),
  fc.string({ minLength: LIMIT - 20, maxLength: LIMIT + 20 }).map((t) => Buffer.from(JSON.stringify({ t }))),
);

/** GET and DELETE without a body: no Content-Length, not chunked (Node adds neither to them). */
const bodyless: fc.Arbitrary<Sent> = fc
  .record({ method: fc.constantFrom('GET', 'DELETE'), type: contentTypes })
  .map(({ method, type }): Sent => {
    const headers: Record<string, string> = type === undefined ? {} : { 'content-type': type };
    return { method, headers, body: Buffer.alloc(0) };
  });

const withBody: fc.Arbitrary<Sent> = fc
  .record({
    type: contentTypes,
    body: texts,
    encoding: fc.constantFrom(undefined, undefined, undefined, 'identity', 'gzip'),
    chunked: fc.boolean(),
  })
  .map(({ type, body, encoding, chunked }) => {
    const bytes = encoding === 'gzip' ? gzipSync(body) : body;
    const headers: Record<string, string> = chunked
      ? { 'transfer-encoding': 'chunked' }
      : { 'content-length': String(bytes.length) };
    if (type !== undefined) headers['content-type'] = type;
    if (encoding !== undefined) headers['content-encoding'] = encoding;
    return { headers, body: bytes };
  });

const requests = fc.oneof({ weight: 1, arbitrary: bodyless }, { weight: 6, arbitrary: withBody });

describe(jsonBody.name, () => {
  let fast: { server: Server; port: number };
  let reference: { server: Server; port: number };

  beforeAll(async () => {
    fast = await serve(jsonBody(LIMIT, bodyParser()));
    reference = await serve(bodyParser());
  });

  afterAll(() => {
    fast.server.close();
    reference.server.close();
  });

  it('gives what body-parser gives (body, or error status and type) over generated requests', async () => {
    await fc.assert(
      fc.asyncProperty(requests, async (sent) => {
        const [a, b] = await Promise.all([send(fast.port, sent), send(reference.port, sent)]);
        expect(a).toEqual(b);
      }),
      { numRuns: runs(400), seed: 11 },
    );
  });

  it('reads the usual request itself, without body-parser, and refuses what body-parser refuses', async () => {
    let fellBack = 0;
    const own = await serve(
      jsonBody(LIMIT, (req, res, next) => {
        fellBack++;
        return bodyParser()(req, res, next);
      }),
    );
    const post = (type: string, text: string) => {
      const body = Buffer.from(text);
      return send(own.port, { headers: { 'content-type': type, 'content-length': String(body.length) }, body });
    };
    try {
      const ok = await post('application/json; charset=utf-8', '\ufeff {"a":"é🦊"}');
      expect(JSON.parse(ok.text)).toEqual({ bodyPresent: true, body: { a: 'é🦊' } });
      const bad = await post('application/json', '"x"');
      expect(JSON.parse(bad.text)).toEqual({ status: 400, expose: true, type: 'entity.parse.failed' });
      const broken = await post('application/json', '{"a":');
      expect(JSON.parse(broken.text)).toEqual({ status: 400, expose: true, type: 'entity.parse.failed' });
      expect(fellBack).toBe(0);
      const tooBig = await post('application/json', JSON.stringify({ t: 'x'.repeat(LIMIT) }));
      expect(JSON.parse(tooBig.text)).toEqual({ status: 413, expose: true, type: 'entity.too.large' });
      expect(fellBack).toBe(1);
    } finally {
      own.server.close();
    }
  });

  it('answers a body cut off before its Content-Length as request.aborted, like body-parser', async () => {
    const cutOff = (port: number) =>
      new Promise<void>((resolve) => {
        const req = httpRequest({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/x',
          headers: { 'content-type': 'application/json', 'content-length': '100' },
        });
        req.on('error', () => resolve());
        req.write('{"a":');
        setTimeout(() => req.destroy(), 50);
      });
    const seen: unknown[] = [];
    const record = (reader: RequestHandler): RequestHandler => {
      return (req, res, next) =>
        reader(req, res, (err?: unknown) => {
          seen.push((err as { type?: string } | undefined)?.type);
          next(err);
        });
    };
    const pair = [await serve(record(jsonBody(LIMIT, bodyParser()))), await serve(record(bodyParser()))];
    for (const s of pair) await cutOff(s.port);
    await new Promise((r) => setTimeout(r, 100));
    for (const s of pair) s.server.close();
    expect(seen).toEqual(['request.aborted', 'request.aborted']);
  });
});

describe(parseStrictJson.name, () => {
  it('takes an empty text as {} and objects or arrays after whitespace; refuses other JSON values', () => {
    expect(parseStrictJson('')).toEqual({});
    expect(parseStrictJson(' \n{"a":[1]}')).toEqual({ a: [1] });
    expect(parseStrictJson('[]')).toEqual([]);
    for (const text of ['1', '"a"', 'null', ' true', 'x']) {
      expect(() => parseStrictJson(text)).toThrow(
        expect.objectContaining({ status: 400, type: 'entity.parse.failed' }),
      );
    }
  });
});

describe('a precheck refuses a text before it is parsed', () => {
  it('passes the refusal on and never parses; a text it lets through is parsed as usual', async () => {
    const parse = jest.spyOn(JSON, 'parse');
    const refusal = Object.assign(new Error('too many'), { status: 400, expose: true, type: 'precheck' });
    const { server, port } = await serve(
      jsonBody(LIMIT, bodyParser(), (text) => {
        if (text.includes('"refuse"')) throw refusal;
      }),
    );
    try {
      const headers = (body: string) => ({ 'content-type': 'application/json', 'content-length': String(body.length) });
      parse.mockClear();
      const refused = await send(port, { headers: headers('{"refuse":1}'), body: Buffer.from('{"refuse":1}') });
      expect({ status: refused.status, body: JSON.parse(refused.text) as unknown }).toEqual({
        status: 599,
        body: { status: 400, expose: true, type: 'precheck' },
      });
      // One parse: the test's own, of the answer.
      expect(parse).toHaveBeenCalledTimes(1);
      const passed = await send(port, { headers: headers('{"keep":1}'), body: Buffer.from('{"keep":1}') });
      expect(JSON.parse(passed.text)).toEqual({ bodyPresent: true, body: { keep: 1 } });
    } finally {
      parse.mockRestore();
      server.close();
    }
  });
});
