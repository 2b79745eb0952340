import { Controller, Get, Head, Header, HttpCode, INestApplication, Module, Post, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import request from 'supertest';
import type { ServerResponse } from 'node:http';
import type { Response } from 'express';
import { AnswersPerTurn, JsonReplyAdapter, transformReply } from './json-reply.adapter';

const WIDE = { text: 'üñí "quoted" \\ \u2028 😀', n: 1.5, nested: { list: [1, null, 'x'] }, at: new Date(0) };

@Controller()
class SamplesController {
  @Get('object') object() {
    return WIDE;
  }
  @Head('object') head() {
    return WIDE;
  }
  @Get('array') array() {
    return [WIDE, 2, 'three'];
  }
  @Post('created') created() {
    return { created: true };
  }
  @Get('accepted') @HttpCode(202) accepted() {
    return { later: true };
  }
  @Get('typed') @Header('Content-Type', 'application/x-ndjson') typed() {
    return { typed: true };
  }
  @Get('string') string() {
    return 'plain';
  }
  @Get('null') nothing() {
    return null;
  }
  @Get('async') async later() {
    return Promise.resolve({ async: 'yes' });
  }
  @Get('empty') @HttpCode(204) empty() {
    return { dropped: true };
  }
  @Get('transformed') transformed(@Res({ passthrough: true }) res: Response) {
    transformReply(res, (body) => ({ ...(body as object), rewritten: true }));
    return { id: 1 };
  }
}

@Module({ controllers: [SamplesController] })
class SamplesModule {}

async function start(adapter: ExpressAdapter): Promise<INestApplication> {
  const app = await NestFactory.create(SamplesModule, adapter, { logger: false });
  app.getHttpAdapter().getInstance().set('etag', false);
  await app.init();
  return app;
}

describe(JsonReplyAdapter.name, () => {
  let express: INestApplication;
  let ours: INestApplication;

  beforeAll(async () => {
    express = await start(new ExpressAdapter());
    ours = await start(new JsonReplyAdapter());
  });

  afterAll(async () => {
    await express.close();
    await ours.close();
  });

  it.each([
    ['GET', '/object'],
    ['HEAD', '/object'],
    ['GET', '/array'],
    ['POST', '/created'],
    ['GET', '/accepted'],
    ['GET', '/typed'],
    ['GET', '/string'],
    ['GET', '/null'],
    ['GET', '/async'],
    ['GET', '/empty'],
  ])('%s %s answers with the status, headers and bytes Express sends', async (method, path) => {
    const send = (app: INestApplication) => {
      const agent = request(app.getHttpServer());
      const req = method === 'GET' ? agent.get(path) : method === 'HEAD' ? agent.head(path) : agent.post(path);
      return req.buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    };
    const [reference, answer] = [await send(express), await send(ours)];
    const headers = (h: Record<string, string>) => {
      const { date: _date, ...rest } = h;
      return rest;
    };
    expect(answer.status).toBe(reference.status);
    expect(headers(answer.headers as Record<string, string>)).toEqual(
      headers(reference.headers as Record<string, string>),
    );
    expect(answer.body).toEqual(reference.body);
  });

  it('writes the JSON itself for objects (the case it exists for)', async () => {
    const reply = jest.spyOn(ExpressAdapter.prototype, 'reply');
    await request(ours.getHttpServer()).get('/object').expect(200);
    expect(reply).not.toHaveBeenCalled();
    await request(ours.getHttpServer()).get('/string').expect(200);
    expect(reply).toHaveBeenCalledTimes(1);
    reply.mockRestore();
  });
});

describe(transformReply.name, () => {
  it("rewrites the handler's answer before it is serialised, for this response only", async () => {
    const app = await start(new JsonReplyAdapter());
    try {
      const rewritten = await request(app.getHttpServer()).get('/transformed').expect(200);
      expect(rewritten.body).toEqual({ id: 1, rewritten: true });
      expect(rewritten.headers['content-length']).toBe(String(Buffer.byteLength('{"id":1,"rewritten":true}')));
      expect((await request(app.getHttpServer()).get('/array').expect(200)).body).toEqual(
        JSON.parse(JSON.stringify([WIDE, 2, 'three'])),
      );
    } finally {
      await app.close();
    }
  });
});

describe(AnswersPerTurn.name, () => {
  /** A response that records what is done to it; `failing` makes its end throw. */
  function response(method = 'GET', failing = false) {
    const calls: string[] = [];
    const res = {
      req: { method },
      setHeader: (name: string, value: unknown) => calls.push(`${name}: ${String(value)}`),
      end: (text?: string) => {
        if (failing) throw new Error('socket gone');
        calls.push(`end ${text ?? '(no body)'}`);
      },
      destroy: (e: Error) => calls.push(`destroy ${e.message}`),
    };
    return { res: res as unknown as ServerResponse, calls };
  }

  it('writes the answers of one turn of the event loop together, in order, at its end; one failing write harms no other', async () => {
    const first = response();
    const failing = response('GET', true);
    const head = response('HEAD');
    const sut = new AnswersPerTurn();
    sut.send(first.res, '{"a":"ü"}');
    sut.send(failing.res, '{}');
    sut.send(head.res, '{"b":2}');
    expect(first.calls).toEqual(['Content-Type: application/json; charset=utf-8', 'Content-Length: 10']);
    await new Promise((r) => setImmediate(r));
    expect(first.calls.slice(2)).toEqual(['end {"a":"ü"}']);
    expect(failing.calls.slice(2)).toEqual(['destroy socket gone']);
    expect(head.calls).toEqual(['Content-Type: application/json; charset=utf-8', 'Content-Length: 7', 'end (no body)']);
    // The next turn's answers are a batch of their own.
    const later = response();
    sut.send(later.res, '[]');
    await new Promise((r) => setImmediate(r));
    expect(later.calls.slice(2)).toEqual(['end []']);
  });
});
