import { createServer } from 'node:net';

// Below Linux's ephemeral range (32768-60999): no listen(0) and no outgoing connection in another jest worker can
// take one of these between the answer and the caller's listen, which once sent a test to another worker's service.
const FIRST_PORT = 20_000;
const PORTS_PER_WORKER = 1_000;
let handedOut = 0;

/** A loopback port nothing listens on right now, from a block of ports only this jest worker hands out. */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.JEST_WORKER_ID ?? 0) % 12;
  const first = FIRST_PORT + worker * PORTS_PER_WORKER;
  for (let tried = 0; tried < PORTS_PER_WORKER; tried++) {
    const port = first + (handedOut++ % PORTS_PER_WORKER);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${first}-${first + PORTS_PER_WORKER - 1}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '0.0.0.0', () => srv.close(() => resolve(true)));
  });
}
