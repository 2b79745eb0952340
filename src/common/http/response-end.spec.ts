import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onResponseEnd } from './response-end';

/** A server whose handler registers three end handlers and either answers or hangs (to be cut off). */
function server(ended: { finished: boolean; order: number[] }[]): Server {
  return createServer((req, res) => {
    const seen = { finished: false, order: [] as number[] };
    for (const i of [1, 2, 3]) {
      onResponseEnd(res, () => {
        seen.order.push(i);
        seen.finished = res.writableFinished;
        if (i === 3) ended.push(seen);
      });
    }
    if (req.url === '/answer') res.end('ok');
  });
}

async function listen(s: Server): Promise<number> {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
}

describe(onResponseEnd.name, () => {
  it('runs every handler once, in order, after a response is sent (keep-alive connections included)', async () => {
    const ended: { finished: boolean; order: number[] }[] = [];
    const s = server(ended);
    const port = await listen(s);
    const agent = new Agent({ keepAlive: true });
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve, reject) =>
        request({ port, path: '/answer', agent }, (res) => res.resume().on('end', resolve))
          .on('error', reject)
          .end(),
      );
    }
    await until(() => ended.length === 3);
    agent.destroy();
    s.closeAllConnections();
    s.close();
    expect(ended).toEqual([1, 2, 3].map(() => ({ finished: true, order: [1, 2, 3] })));
  });

  it('runs them once when the client goes away before an answer, with the response unfinished', async () => {
    const ended: { finished: boolean; order: number[] }[] = [];
    const s = server(ended);
    const port = await listen(s);
    // The server's own listener runs first: once this one hears the request, its end handlers are registered.
    const received = new Promise((r) => s.once('request', r));
    const req = request({ port, path: '/hang' });
    req.on('error', () => undefined);
    req.end();
    await received;
    req.destroy();
    await until(() => ended.length === 1);
    s.closeAllConnections();
    s.close();
    expect(ended).toEqual([{ finished: false, order: [1, 2, 3] }]);
  });
});
