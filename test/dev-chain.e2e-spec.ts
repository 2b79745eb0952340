import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, formatEther, id, JsonRpcProvider, namehash, Wallet } from 'ethers';
import { PortalClient } from './support/portal-client';
import { freePort, type ServiceProcess, startServiceProcess } from './support/service-process';
import { logChild } from './support/suite-log';

const CLI = join(__dirname, '..', 'dist', 'cli.js');
const PUBLIC_URL = 'http://localhost:3000';
const TEMPLATE = `${PUBLIC_URL}/api/v1/ccip-read/{sender}/{data}.json`;
const REGISTRY = [
  'function owner(bytes32 node) view returns (address)',
  'function resolver(bytes32 node) view returns (address)',
];
const REGISTRAR = ['function ownerOf(uint256 id) view returns (address)'];
const RESOLVER = ['function url() view returns (string)', 'function signers(address) view returns (bool)'];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string | undefined>): Promise<Run> {
  return new Promise((resolve) => {
    logChild(
      'cli',
      execFile(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      ),
    );
  });
}

/** Starts `dev-chain` and waits for its printed settings (or its exit). */
function startDevChain(args: string[], env: Record<string, string | undefined>): Promise<[ChildProcess, string]> {
  const child = logChild(
    'dev-chain',
    spawn(process.execPath, [CLI, 'dev-chain', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let out = '';
  return new Promise((resolve, reject) => {
    const seen = (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ctrl-C stops the chain.')) resolve([child, out]);
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('exit', (code) => reject(new Error(`dev-chain exited with ${code}:\n${out}`)));
  });
}

const exitCode = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
  });

describe('npm run cli -- dev-chain: ENS and the resolver on a local chain', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'dev-chain-'));
  // The signer key comes from DATA_DIR, as on a fresh machine: the service and dev-chain share it.
  const env = { DATA_DIR: dataDir, PUBLIC_URL, CCIP_SIGNER_KEY: undefined };
  let chain: ChildProcess;
  let printed: string;
  let settings: Record<string, string>;
  let provider: JsonRpcProvider;
  let service: ServiceProcess;

  beforeAll(async () => {
    const port = await freePort();
    [chain, printed] = await startDevChain(['--port', String(port)], env);
    settings = Object.fromEntries([...printed.matchAll(/^export (\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
    expect(settings.ENS_RPC_URL).toBe(`http://127.0.0.1:${port}`);
    provider = new JsonRpcProvider(settings.ENS_RPC_URL, Number(settings.ENS_CHAIN_ID), { staticNetwork: true });
    service = await startServiceProcess({ ...settings, DATA_DIR: dataDir, CCIP_SIGNER_KEY: undefined });
  });

  afterAll(async () => {
    provider?.destroy();
    await service?.stop();
    if (chain?.exitCode === null) chain.kill('SIGKILL');
  });

  it('prints every ENS_* setting the service reads, and PUBLIC_URL', () => {
    expect(Object.keys(settings).sort()).toEqual(
      [
        'ENS_BASE_REGISTRAR_ADDRESS',
        'ENS_CHAIN_ID',
        'ENS_NAME_WRAPPER_ADDRESS',
        'ENS_REGISTRY_ADDRESS',
        'ENS_REVERSE_REGISTRAR_ADDRESS',
        'ENS_RPC_URL',
        'PUBLIC_URL',
      ].sort(),
    );
    expect(settings.ENS_CHAIN_ID).toBe('31337');
    expect(settings.PUBLIC_URL).toBe(PUBLIC_URL);
    expect(printed).toMatch(/never use it on a real chain/);
  });

  it("gives oak.eth and ETH to the printed test key, and points oak.eth at the resolver that trusts the service's signer", async () => {
    const key = /private key (0x[0-9a-f]{64})/.exec(printed)?.[1];
    const holder = new Wallet(key!);
    expect(printed).toContain(`address     ${holder.address}`);
    const registry = new Contract(settings.ENS_REGISTRY_ADDRESS, REGISTRY, provider);
    const registrar = new Contract(settings.ENS_BASE_REGISTRAR_ADDRESS, REGISTRAR, provider);
    expect(await registry.owner(namehash('oak.eth'))).toBe(holder.address);
    expect(await registrar.ownerOf(BigInt(id('oak')))).toBe(holder.address);
    expect(formatEther(await provider.getBalance(holder.address))).toBe('10000.0');
    expect(await registry.owner(namehash('addr.reverse'))).toBe(settings.ENS_REVERSE_REGISTRAR_ADDRESS);

    const resolverAddress = (await registry.resolver(namehash('oak.eth'))) as string;
    expect(printed).toContain(`oak.eth uses the resolver ${resolverAddress}`);
    const resolver = new Contract(resolverAddress, RESOLVER, provider);
    const { address: serviceSigner } = (await (await fetch(`${service.url}/api/v1/ccip-read/signer`)).json()) as {
      address: string;
    };
    expect(await resolver.signers(serviceSigner)).toBe(true);
    expect(await resolver.signers(holder.address)).toBe(false);
    expect(await resolver.url()).toBe(TEMPLATE);
  });

  it('passes all five steps of the resolution check, through the route and through resolver check', async () => {
    const res = await fetch(`${service.url}/api/v1/resolution/status?parentName=oak.eth`);
    const status = (await res.json()) as { ok: boolean; steps: { step: string; ok: boolean }[] };
    expect(res.status).toBe(200);
    expect(status.steps.map((s) => [s.step, s.ok])).toEqual([
      ['registry', true],
      ['wildcard', true],
      ['gateway', true],
      ['signer', true],
      ['answer', true],
    ]);
    expect(status.ok).toBe(true);

    const check = await cli(['resolver', 'check', 'oak.eth', '--gateway', service.url], { ...env, ...settings });
    expect(check.stdout.trimEnd().split('\n')).toHaveLength(5);
    expect(check.stderr).toBe('oak.eth resolves through this service.\n');
    expect(check.code).toBe(0);
  });

  it('lets the printed key sign in to the portal, issue a key for oak.eth and create a subname with it', async () => {
    const holder = new Wallet(/private key (0x[0-9a-f]{64})/.exec(printed)![1]);
    const portal = new PortalClient(service.url, PUBLIC_URL);
    const session = await portal.signIn(holder);
    expect(session.address).toBe(holder.address);
    const issued = await portal.send(session, 'post', '/keys', { name: 'dev', parentNames: ['oak.eth'] }).expect(201);
    const me = await portal.get(session, '/me').expect(200);
    expect((me.body.names as { name: string; wrapped: boolean }[]).map((n) => [n.name, n.wrapped])).toEqual([
      ['oak.eth', false],
    ]);

    const created = await fetch(`${service.url}/api/v1/subnames`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': issued.body.key as string },
      // A label no other suite writes: the run's database is shared by its suites.
      body: JSON.stringify({ parentName: 'oak.eth', label: 'devchain', texts: [{ key: 'description', value: 'dev' }] }),
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { fullName: string }).fullName).toBe('devchain.oak.eth');
  });

  it('refuses a port in use with one line (exit 1), then stops on SIGTERM with exit 0', async () => {
    const taken = new URL(settings.ENS_RPC_URL).port;
    const busy = await cli(['dev-chain', '--port', taken], env);
    expect(busy.code).toBe(1);
    expect(busy.stderr.trim()).toBe(`port ${taken} on 127.0.0.1 is in use: give another with --port PORT`);

    chain.kill('SIGTERM');
    expect(await exitCode(chain)).toBe(0);
    await expect(provider.getBlockNumber()).rejects.toThrow();
  });
});

describe('npm run cli -- dev-chain: usage', () => {
  it('answers --help with its own usage (exit 0)', async () => {
    const run = await cli(['dev-chain', '--help'], {});
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npm run cli -- dev-chain/);
    expect(run.stdout).toContain('dev-chain [--port PORT] [--chain-id ID] [--parent NAME] [--signer ADDRESS]');
  });

  it.each([
    [['--port', '70000'], '--port must be an integer from 0 to 65535'],
    [['--chain-id', '0'], '--chain-id must be an integer from 1 to 4294967295'],
    [['--parent', 'a.b.eth'], '--parent must be a .eth second-level name such as oak.eth'],
    [['--signer', '0x12'], '--signer must be a 0x-prefixed 20-byte address'],
    [['--verbose'], 'unknown option --verbose'],
  ])('refuses %j as wrong usage (exit 2)', async (args, message) => {
    const run = await cli(['dev-chain', ...args], {});
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(message);
  });
});
