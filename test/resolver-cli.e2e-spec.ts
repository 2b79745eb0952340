import { execFile } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Contract,
  ContractFactory,
  EnsPlugin,
  getAddress,
  id,
  type InterfaceAbi,
  JsonRpcProvider,
  namehash,
  Network,
  Wallet,
  ZeroHash,
} from 'ethers';
import request from 'supertest';
import nameWrapperArtifact from '../contracts/dev/NameWrapper.json';
import { compileContract } from './contracts/compile';
import { RpcServer } from '../src/dev-chain/rpc-server';
import { freePort } from './support/service-process';
import { logChild } from './support/suite-log';
import { createTestApp, expectSignedOnTheThread, TestApp } from './support/test-app';

const CHAIN_ID = 31337;
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const STEPS = ['registry', 'wildcard', 'gateway', 'signer', 'answer'];
const CLI = join(__dirname, '..', 'dist', 'cli.js');
const gateway = Wallet.createRandom();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
interface Check {
  parentName: string;
  ok: boolean;
  steps: { step: string; ok: boolean; detail: string }[];
}

/**
 * The resolver tools end to end, as an operator runs them: the built CLI (npm run cli -- resolver …) and the
 * service both reach an in-process chain (an ENS registry, a Name Wrapper stand-in) through a loopback JSON-RPC
 * endpoint, by URL; the CLI deploys contracts/OffchainResolver.json, sets it as a parent's resolver and checks
 * the five steps, and GET /resolution/status says the same.
 */
describe('npm run cli -- resolver: deploy, use and check a parent on chain', () => {
  let rpc: RpcServer;
  let provider: JsonRpcProvider;
  let t: TestApp;
  let origin: string;
  let template: string;
  let registry: Contract;
  let wrapper: Contract;
  let resolver: string;
  const dir = mkdtempSync(join(tmpdir(), 'resolver-cli-'));
  const operatorKey = join(dir, 'operator.key');
  const strangerKey = join(dir, 'stranger.key');
  let operator: Wallet;
  let second: Wallet;
  let env: NodeJS.ProcessEnv;

  const cli = (...args: string[]): Promise<Run> =>
    new Promise((resolve) => {
      logChild(
        'cli',
        execFile(process.execPath, [CLI, 'resolver', ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
        }),
      );
    });
  const checkJson = async (parent: string): Promise<{ code: number; check: Check }> => {
    const run = await cli('check', parent, '--json');
    return { code: run.code, check: JSON.parse(run.stdout) as Check };
  };
  const status = async (parent: string) =>
    (await request(t.http).get(`/api/v1/resolution/status?parentName=${parent}`).expect(200)).body as Check;
  const failedAt = (check: Check) => check.steps.find((s) => !s.ok)?.step;

  beforeAll(async () => {
    rpc = await RpcServer.start(CHAIN_ID);
    provider = new JsonRpcProvider(rpc.url, CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
    const root = new Wallet(Wallet.createRandom().privateKey, provider);
    operator = new Wallet(Wallet.createRandom().privateKey, provider);
    second = new Wallet(Wallet.createRandom().privateKey, provider);
    writeFileSync(operatorKey, `${operator.privateKey}\n`);
    writeFileSync(strangerKey, Wallet.createRandom().privateKey);

    const deploy = async (file: string, name: string, args: unknown[] = []) => {
      const code = compileContract(file, name);
      const contract = (await new ContractFactory(code.abi as InterfaceAbi, code.bytecode, root).deploy(
        ...args,
      )) as Contract;
      await contract.waitForDeployment();
      return contract;
    };
    registry = await deploy('ENSRegistry.sol', 'ENSRegistry');
    wrapper = (await new ContractFactory(nameWrapperArtifact.abi, nameWrapperArtifact.bytecode, root).deploy(
      await registry.getAddress(),
    )) as Contract;
    await wrapper.waitForDeployment();
    const mine = async (p: Promise<{ wait(): Promise<unknown> }>) => (await p).wait();
    await mine(registry.setSubnodeOwner(ZeroHash, id('eth'), root.address));
    await mine(registry.setSubnodeOwner(namehash('eth'), id('oak'), operator.address));
    await mine(registry.setSubnodeOwner(namehash('eth'), id('pine'), second.address));
    // elm.eth and ash.eth are wrapped: the Name Wrapper owns them in the registry; ash.eth's resolver is frozen.
    for (const [label, fuses] of [
      ['elm', 0],
      ['ash', 8 | 1],
    ] as const) {
      await mine(registry.setSubnodeOwner(namehash('eth'), id(label), await wrapper.getAddress()));
      await mine(wrapper.wrap(namehash(`${label}.eth`), operator.address, fuses, 2_000_000_000));
    }

    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const ens = {
      ENS_RPC_URL: rpc.url,
      ENS_CHAIN_ID: String(CHAIN_ID),
      ENS_REGISTRY_ADDRESS: await registry.getAddress(),
      ENS_NAME_WRAPPER_ADDRESS: await wrapper.getAddress(),
      PUBLIC_URL: origin,
    };
    t = await createTestApp({ DATA_DIR: dir, CCIP_SIGNER_KEY: gateway.privateKey, ...ens });
    await t.app.listen(port, '127.0.0.1');
    env = { ...process.env, ...ens, NODE_ENV: 'test', LOG_LEVEL: 'warn' };
    template = (await request(t.http).get('/api/v1/ccip-read/signer').expect(200)).body.urlTemplate as string;
    const { key } = await t.issueKey(['oak.eth']);
    await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'oak.eth', label: 'alice', addresses: [{ coin: 60, value: ETH }] })
      .expect(201);
  }, 120_000);

  afterAll(async () => {
    provider?.destroy();
    await t?.close();
    await rpc?.close();
  });

  it('deploy prints the new resolver; check before use fails at registry and runs nothing after it', async () => {
    expect(template).toBe(`${origin}/api/v1/ccip-read/{sender}/{data}.json`);
    const deployed = await cli(
      'deploy',
      '--url-template',
      template,
      '--signer',
      gateway.address,
      '--private-key-file',
      operatorKey,
      '--json',
    );
    expect(deployed.code).toBe(0);
    const result = JSON.parse(deployed.stdout) as { resolver: string; owner: string };
    resolver = result.resolver;
    expect(result.owner).toBe(operator.address);
    expect(await provider.getCode(resolver)).not.toBe('0x');

    const before = await cli('check', 'oak.eth');
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(/^FAIL registry .*oak\.eth has no resolver.*resolver use oak\.eth --resolver/m);
    const { check } = await checkJson('oak.eth');
    expect(check.steps.map((s) => [s.step, s.ok])).toEqual(STEPS.map((s) => [s, false]));
    for (const later of check.steps.slice(1)) expect(later.detail).toBe('Not run: the registry step failed');
  });

  it('use sets the resolver in the registry; check and GET /resolution/status then pass all five steps', async () => {
    const used = await cli('use', 'oak.eth', '--resolver', resolver, '--private-key-file', operatorKey);
    expect(used.code).toBe(0);
    expect(used.stdout).toContain(`oak.eth now uses the resolver ${resolver} (set through the ENS registry`);
    expect(await registry.resolver(namehash('oak.eth'))).toBe(resolver);

    const run = await cli('check', 'oak.eth');
    expect(run.code).toBe(0);
    // One line per step on stdout, nothing else; the verdict on stderr.
    expect(
      run.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.slice(0, 13).trim()),
    ).toEqual(STEPS.map((s) => `ok   ${s}`));
    expect(run.stderr).toBe('oak.eth resolves through this service.\n');
    const { code, check } = await checkJson('oak.eth');
    expect(code).toBe(0);
    expect(check.ok).toBe(true);
    expect(check.steps.at(-1)!.detail).toContain(`alice.oak.eth resolves through ${resolver} to the address ${ETH}`);
    const served = await status('oak.eth');
    expect(served).toMatchObject({ parentName: 'oak.eth', ok: true });
    expect(served.steps.map((s) => [s.step, s.ok])).toEqual(STEPS.map((s) => [s, true]));

    // A wallet resolves through the same contracts.
    const network = new Network('local', CHAIN_ID);
    network.attachPlugin(new EnsPlugin(await registry.getAddress(), CHAIN_ID));
    const wallet = new JsonRpcProvider(rpc.url, network, { staticNetwork: network });
    try {
      expect(await wallet.resolveName('alice.oak.eth')).toBe(ETH);
    } finally {
      wallet.destroy();
    }
    // The gateway signed the answers of the check and the wallet on the signing thread, as production signs.
    await expectSignedOnTheThread(t);
  });

  it('checks a parent whose stored subname has a label over 63 bytes (HTTP and CLI), never a 500', async () => {
    const { key } = await t.issueKey(['oak.eth']);
    const long = 'a'.repeat(100);
    const write = () => request(t.http).post('/api/v1/subnames').set('x-auth-token', key);
    await write()
      .send({ parentName: 'oak.eth', label: long, addresses: [{ coin: 60, value: ETH }] })
      .expect(201);
    try {
      const served = await status('oak.eth');
      expect(served.ok).toBe(true);
      expect(served.steps.at(-1)!.detail).toMatch(/ resolves through /);
      const { code, check } = await checkJson('oak.eth');
      expect(code).toBe(0);
      expect(check.ok).toBe(true);
    } finally {
      await request(t.http).delete(`/api/v1/subnames/${long}.oak.eth`).set('x-auth-token', key).expect(204);
    }
  });

  it('fails at signer after `resolver signers` trusts another key, and passes again once it is back', async () => {
    const other = Wallet.createRandom().address;
    const rotate = (add: string, remove: string) =>
      cli('signers', '--resolver', resolver, '--add', add, '--remove', remove, '--private-key-file', operatorKey);
    expect((await rotate(other, gateway.address)).code).toBe(0);
    const { code, check } = await checkJson('oak.eth');
    expect(code).toBe(1);
    expect(failedAt(check)).toBe('signer');
    expect(check.steps.slice(0, 3).every((s) => s.ok)).toBe(true);
    const signer = check.steps[3];
    expect(signer.detail).toContain(`does not trust this service's signer ${gateway.address}`);
    expect(signer.detail).toContain(`resolver signers --resolver ${resolver} --add ${gateway.address}`);
    expect(check.steps[4]).toEqual({ step: 'answer', ok: false, detail: 'Not run: the signer step failed' });
    expect(failedAt(await status('oak.eth'))).toBe('signer');
    expect((await rotate(gateway.address, other)).code).toBe(0);
    expect((await checkJson('oak.eth')).check.ok).toBe(true);
  });

  it('fails at gateway after `resolver url` points elsewhere, naming the command that moves it back', async () => {
    const elsewhere = 'https://elsewhere.example/{sender}/{data}.json';
    const moved = await cli(
      'url',
      '--resolver',
      resolver,
      '--url-template',
      elsewhere,
      '--private-key-file',
      operatorKey,
    );
    expect(moved.code).toBe(0);
    const run = await cli('check', 'oak.eth');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^FAIL gateway /m);
    const { check } = await checkJson('oak.eth');
    expect(failedAt(check)).toBe('gateway');
    expect(check.steps[2].detail).toContain(elsewhere);
    expect(check.steps[2].detail).toContain(`resolver url --resolver ${resolver} --url-template ${template}`);
    expect(failedAt(await status('oak.eth'))).toBe('gateway');
    expect(
      (await cli('url', '--resolver', resolver, '--url-template', template, '--private-key-file', operatorKey)).code,
    ).toBe(0);
    expect((await checkJson('oak.eth')).check.ok).toBe(true);
  });

  it('refuses a write from an account that does not own the resolver, with the reason (exit 1)', async () => {
    const refused = await cli(
      'url',
      '--resolver',
      resolver,
      '--url-template',
      template,
      '--private-key-file',
      strangerKey,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`is not the owner of the resolver ${resolver}`);
  });

  it('a wrapped name goes through the Name Wrapper; a burnt CANNOT_SET_RESOLVER fuse is refused with the reason', async () => {
    const used = await cli('use', 'elm.eth', '--resolver', resolver, '--private-key-file', operatorKey, '--json');
    expect(used.code).toBe(0);
    expect(JSON.parse(used.stdout)).toMatchObject({ parentName: 'elm.eth', resolver, via: 'nameWrapper' });
    expect(await registry.resolver(namehash('elm.eth'))).toBe(resolver);
    const { code, check } = await checkJson('elm.eth');
    expect(code).toBe(0);
    // Nothing is stored under elm.eth: an unstored label's signed empty answer proves the path.
    expect(check.steps[4].detail).toMatch(/^check-[0-9a-f]{12}\.elm\.eth resolves through .* to no address/);

    for (const mode of [['--private-key-file', operatorKey], ['--print']]) {
      const frozen = await cli('use', 'ash.eth', '--resolver', resolver, ...mode);
      expect(frozen.code).toBe(1);
      expect(frozen.stderr).toContain('ash.eth is wrapped in the Name Wrapper with its CANNOT_SET_RESOLVER fuse burnt');
    }
    expect(await registry.resolver(namehash('ash.eth'))).toBe('0x0000000000000000000000000000000000000000');
  });

  it('--print: the unsigned transactions, sent by a second account, give the same result', async () => {
    const printed = await cli(
      'deploy',
      '--print',
      '--url-template',
      template,
      '--signer',
      gateway.address,
      '--owner',
      second.address,
    );
    expect(printed.code).toBe(0);
    const deployTx = JSON.parse(printed.stdout) as { to: null; data: string; value: string; chainId: number };
    expect(deployTx).toEqual({ to: null, data: expect.stringMatching(/^0x[0-9a-f]+$/), value: '0', chainId: CHAIN_ID });
    const deployed = await (await second.sendTransaction(deployTx)).wait();
    const secondResolver = getAddress(deployed!.contractAddress!);

    const use = JSON.parse((await cli('use', 'pine.eth', '--resolver', secondResolver, '--print')).stdout) as {
      to: string;
    };
    expect(use).toMatchObject({ to: await registry.getAddress(), value: '0', chainId: CHAIN_ID });
    expect((await (await second.sendTransaction(use)).wait())!.status).toBe(1);

    const { code, check } = await checkJson('pine.eth');
    expect(code).toBe(0);
    expect(check.steps.map((s) => [s.step, s.ok])).toEqual(STEPS.map((s) => [s, true]));
    expect(check.steps[0].detail).toContain(secondResolver);

    const signers = JSON.parse(
      (await cli('signers', '--resolver', secondResolver, '--remove', gateway.address, '--print')).stdout,
    ) as { to: string };
    expect(signers.to).toBe(secondResolver);
    await (await second.sendTransaction(signers)).wait();
    expect(failedAt((await checkJson('pine.eth')).check)).toBe('signer');
  });

  it('usage errors exit 2; an unreachable chain is a failure saying what to check, exit 1', async () => {
    const usage = await cli('deploy', '--url-template', template, '--private-key-file', operatorKey);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('resolver deploy needs at least one --signer ADDRESS');
    const extra = await cli('deploy', '--url-template', template, '--signer', gateway.address, operator.address);
    expect(extra.code).toBe(2);
    expect(extra.stderr.split('\n')[0]).toBe(`unexpected argument ${operator.address}`);
    const port = await freePort();
    const down = await cli('check', 'oak.eth', '--rpc-url', `http://127.0.0.1:${port}`);
    expect(down).toMatchObject({ code: 1, stdout: '' });
    expect(down.stderr).toBe(
      `The Ethereum JSON-RPC endpoint http://127.0.0.1:${port} failed: ` +
        'check --rpc-url (default ENS_RPC_URL) and that the node is running\n',
    );
  });
});

describe('GET /resolution/status without a chain', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DATA_DIR: mkdtempSync(join(tmpdir(), 'status-')), ENS_RPC_URL: undefined });
  });
  afterAll(() => t?.close());

  it('answers 503 CHAIN_UNAVAILABLE without ENS_RPC_URL, and 400 for a name that is not one', async () => {
    const res = await request(t.http).get('/api/v1/resolution/status?parentName=oak.eth').expect(503);
    expect(res.body).toMatchObject({ code: 'CHAIN_UNAVAILABLE', status: 503 });
    expect(res.body.detail).toContain('ENS_RPC_URL');
    const bad = await request(t.http).get('/api/v1/resolution/status?parentName=eth').expect(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'parentName' }] });
  });
});

describe('GET /resolution/status with a chain that never answers', () => {
  let t: TestApp;
  let stuck: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    stuck = createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => stuck.listen(0, '127.0.0.1', resolve));
    const { port } = stuck.address() as { port: number };
    t = await createTestApp({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'status-')),
      ENS_RPC_URL: `http://127.0.0.1:${port}`,
    });
  });
  afterAll(async () => {
    await t?.close();
    sockets.forEach((s) => s.destroy());
    await new Promise((resolve) => stuck?.close(resolve));
  });

  it('answers 503 CHAIN_UNAVAILABLE within a few seconds, with Retry-After', async () => {
    const started = Date.now();
    const res = await request(t.http).get('/api/v1/resolution/status?parentName=oak.eth').expect(503);
    expect(Date.now() - started).toBeLessThan(6500);
    expect(res.body).toMatchObject({ code: 'CHAIN_UNAVAILABLE', status: 503 });
    expect(res.headers['retry-after']).toBe('5');
  });
});
