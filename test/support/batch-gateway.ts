/**
 * An ENSIP-21 batch gateway on 127.0.0.1, the role ENS Labs' public one plays for ethers: the Universal Resolver
 * wraps a resolver's OffchainLookup into `query((sender, urls, data)[])`, and this server makes each EIP-3668
 * request (GET when the URL template holds {data}, else POST {sender, data}) and answers `(failures, responses)`,
 * a failure carrying `HttpError(status, message)`. viem does the same in-process ("x-batch-gateway:true").
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Interface } from 'ethers';

const batch = new Interface([
  'function query((address sender, string[] urls, bytes data)[] requests) view returns (bool[] failures, bytes[] responses)',
  'error HttpError(uint16 status, string message)',
]);

interface Query {
  sender: string;
  urls: string[];
  data: string;
}

export interface BatchGateway {
  url: string;
  /** How many EIP-3668 requests it has made, to show which path a client took. */
  requests: number;
  close(): Promise<void>;
}

async function lookup(query: Query): Promise<{ ok: boolean; data: string }> {
  let failure = batch.encodeErrorResult('HttpError', [404, 'no gateway URL']);
  for (const template of query.urls) {
    const url = template.replace('{sender}', query.sender.toLowerCase()).replace('{data}', query.data);
    const res = template.includes('{data}')
      ? await fetch(url)
      : await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ sender: query.sender.toLowerCase(), data: query.data }),
        });
    if (res.ok) return { ok: true, data: ((await res.json()) as { data: string }).data };
    failure = batch.encodeErrorResult('HttpError', [res.status, (await res.text()).slice(0, 200)]);
  }
  return { ok: false, data: failure };
}

export async function startBatchGateway(): Promise<BatchGateway> {
  const gateway: BatchGateway = { url: '', requests: 0, close: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        try {
          const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: string };
          const [requests] = batch.decodeFunctionData('query', data) as unknown as [Query[]];
          gateway.requests += requests.length;
          const answers = await Promise.all(
            requests.map((q) => lookup({ sender: q.sender, urls: [...q.urls], data: q.data })),
          );
          const body = batch.encodeFunctionResult('query', [answers.map((a) => !a.ok), answers.map((a) => a.data)]);
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: body }));
        } catch (err) {
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: String(err) }));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gateway.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  gateway.close = () => new Promise((resolve) => server.close(() => resolve()));
  return gateway;
}
