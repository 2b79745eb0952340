import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { loadConfig } from '../config/app-config';
import { ChainUnavailableError } from './chain.errors';
import { EnsChainService } from './chain.module';
import { withinChainDeadline } from './deadline';
import { EnsChain } from './ens-chain';

const REGISTRY = '0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e';
const WRAPPER = '0xD4416b13d2b3a9aBae7AcD5D6C2BbDBE25686401';

/** A TCP endpoint that accepts connections and never answers: a stuck RPC node. */
async function silentEndpoint(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((s) => sockets.push(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe(EnsChain.name, () => {
  it('turns an endpoint that never answers into CHAIN_UNAVAILABLE within its request timeout', async () => {
    const endpoint = await silentEndpoint();
    const chain = EnsChain.at({
      rpcUrl: endpoint.url,
      chainId: 1,
      registry: REGISTRY,
      nameWrapper: WRAPPER,
      timeoutMs: 300,
    });
    const started = Date.now();
    try {
      const e = await chain.resolverOf('oak.eth').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ChainUnavailableError);
      expect((e as ChainUnavailableError).code).toBe('CHAIN_UNAVAILABLE');
      expect((e as ChainUnavailableError).status).toBe(503);
      expect((e as Error).message).toBe(
        `The Ethereum JSON-RPC endpoint ${endpoint.url} did not answer in time; try again shortly`,
      );
      // Its own 300 ms, not ethers' 5-minute request timeout: the bound leaves room for a loaded machine.
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      chain.destroy();
      await endpoint.close();
    }
  });

  it('turns a refused connection into CHAIN_UNAVAILABLE, also when asking the chain id', async () => {
    const endpoint = await silentEndpoint();
    await endpoint.close();
    const options = { rpcUrl: endpoint.url, registry: REGISTRY, nameWrapper: WRAPPER, timeoutMs: 1000 };
    await expect(EnsChain.connect(options)).rejects.toThrow(`${endpoint.url} failed`);
    const chain = EnsChain.at({ ...options, chainId: 1 });
    try {
      await expect(chain.supportsInterface(REGISTRY, '0x9061b923')).rejects.toBeInstanceOf(ChainUnavailableError);
    } finally {
      chain.destroy();
    }
  });

  it('says which setting to check when the registry address holds no contract (every eth_call answers 0x)', async () => {
    const server = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const calls = JSON.parse(body) as { id: number } | { id: number }[];
        const reply = (c: { id: number }) => ({ jsonrpc: '2.0', id: c.id, result: '0x' });
        res.end(JSON.stringify(Array.isArray(calls) ? calls.map(reply) : reply(calls)));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const chain = EnsChain.at({
      rpcUrl: `http://127.0.0.1:${port}`,
      chainId: 1,
      registry: REGISTRY,
      nameWrapper: WRAPPER,
    });
    try {
      await expect(chain.resolverOf('oak.eth')).rejects.toThrow(
        `${REGISTRY} does not answer resolver() as the ENS contract of chain 1: check ENS_RPC_URL and the ENS_* addresses`,
      );
      expect(await chain.supportsInterface(REGISTRY, '0x9061b923')).toBe(false);
    } finally {
      chain.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe(withinChainDeadline.name, () => {
  it('answers with the work when it is in time, and CHAIN_UNAVAILABLE once the deadline passes', async () => {
    await expect(withinChainDeadline(Promise.resolve(7), 100)).resolves.toBe(7);
    const never = new Promise<number>(() => undefined);
    await expect(withinChainDeadline(never, 50)).rejects.toThrow('The ENS chain could not be read within 0.05 s');
  });
});

describe(EnsChainService.name, () => {
  it('refuses every use without ENS_RPC_URL (503 CHAIN_UNAVAILABLE naming it)', () => {
    const sut = new EnsChainService(loadConfig({}));
    expect(() => sut.get()).toThrow(ChainUnavailableError);
    expect(() => sut.get()).toThrow('ENS_RPC_URL is unset');
  });

  it('makes one chain from ENS_RPC_URL, ENS_CHAIN_ID and the ENS addresses', () => {
    const sut = new EnsChainService(loadConfig({ ENS_RPC_URL: 'http://127.0.0.1:1', ENS_CHAIN_ID: '11155111' }));
    const chain = sut.get();
    expect(sut.get()).toBe(chain);
    expect(chain).toMatchObject({ chainId: 11155111, registry: REGISTRY, nameWrapper: WRAPPER });
    sut.onModuleDestroy();
  });
});
