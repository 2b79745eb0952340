/**
 * A loopback JSON-RPC endpoint (HTTP POST, single calls and batches) in front of an in-process chain, so that the
 * service (ENS_RPC_URL), the CLI (--rpc-url) and a browser wallet reach contracts in memory by URL, as they would
 * a real node.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Hardfork } from '@ethereumjs/common';
import { Evm } from './evm';
import { EvmEip1193, RpcError } from './evm-rpc';

interface RpcCall {
  id?: unknown;
  method?: unknown;
  params?: unknown[];
}

export class RpcServer {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly node: EvmEip1193,
    readonly evm: Evm,
    readonly chain: number,
  ) {}

  /** A fresh chain with this chain id (and EVM version), served on 127.0.0.1 at `port` (0: a free one). */
  static async start(chainId = 31337, evm = Evm.start(), hardfork?: Hardfork, port = 0): Promise<RpcServer> {
    const chain = await evm.chain(chainId, hardfork);
    const node = new EvmEip1193(evm, chain, chainId);
    const server = createServer((req, res) => {
      // Pages (the portal's wallet calls) may ask a node from another origin, as public endpoints allow.
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-allow-headers', 'content-type');
      if (req.method === 'OPTIONS') return res.writeHead(204).end();
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        void answer(node, body).then((reply) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(reply));
        });
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    const { port: bound } = server.address() as AddressInfo;
    return new RpcServer(server, `http://127.0.0.1:${bound}`, node, evm, chain);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
    await this.evm.stop();
  }
}

async function answer(node: EvmEip1193, body: string): Promise<unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } };
  }
  // Batches run one call after another, in order, as ethers expects of a node.
  if (Array.isArray(parsed)) {
    const replies = [];
    for (const call of parsed as RpcCall[]) replies.push(await one(node, call));
    return replies;
  }
  return one(node, parsed as RpcCall);
}

async function one(node: EvmEip1193, call: RpcCall): Promise<unknown> {
  try {
    if (typeof call.method !== 'string') throw new RpcError(-32600, 'invalid request');
    return { jsonrpc: '2.0', id: call.id, result: await node.request({ method: call.method, params: call.params }) };
  } catch (e) {
    const error =
      e instanceof RpcError
        ? { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) }
        : { code: -32603, message: e instanceof Error ? e.message : String(e) };
    return { jsonrpc: '2.0', id: call.id, error };
  }
}
