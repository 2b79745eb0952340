import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENSRegistry, ReverseRegistrar } from '@ensdomains/ens';
import {
  AbiCoder,
  type BrowserProvider,
  concat,
  dnsEncode,
  Contract,
  ContractFactory,
  id,
  Interface,
  JsonRpcProvider,
  namehash,
  Wallet,
  ZeroAddress,
  ZeroHash,
} from 'ethers';
import request from 'supertest';
import { createPublicClient, custom, defineChain, type PublicClient } from 'viem';
import resolverArtifact from '../contracts/OffchainResolver.json';
import { compileContract } from './contracts/compile';
import { BatchGateway, startBatchGateway } from './support/batch-gateway';
import { evmProvider } from './support/evm-provider';
import { RpcServer } from '../src/dev-chain/rpc-server';
import { execFileLogged } from './support/suite-log';
import { ADMIN_TOKEN, createTestApp, expectSignedOnTheThread, TestApp } from './support/test-app';

const CHAIN_ID = 31337;
const PUBLIC_URL = 'https://subnames.example.com';
const DOMAIN = { name: 'ENS subname service', version: '1', chainId: CHAIN_ID };
const TYPES = {
  PrimaryName: [
    { name: 'addr', type: 'address' },
    { name: 'name', type: 'string' },
    { name: 'issuedAt', type: 'uint256' },
    { name: 'service', type: 'string' },
  ],
};
const REVERSE_REGISTRAR = new Interface(['function claimWithResolver(address owner, address resolver)']);
const now = () => Math.floor(Date.now() / 1000);
const ERC6492_SUFFIX = `0x${'6492'.repeat(16)}`;

/** The body of POST /primary-names, signed by `signer` for `address` (itself unless given). */
async function signed(signer: Wallet, name: string, issuedAt: number, address = signer.address) {
  const message = { addr: address, name, issuedAt, service: PUBLIC_URL };
  return { address, name, issuedAt, signature: await signer.signTypedData(DOMAIN, TYPES, message) };
}

/**
 * Primary names as wallets read them (ENSIP-19): ENS's own ENSRegistry and ReverseRegistrar (@ensdomains/ens), the
 * shipped resolver and the Universal Resolver test contract on an in-process chain behind the loopback JSON-RPC
 * server; the holder sends the prepared transaction with an ethers Wallet, signs its choice, and viem's getEnsName
 * and ethers' lookupAddress show it, until the name's address moves.
 */
describe('primary names: chosen by signature, shown by viem and ethers', () => {
  let rpc: RpcServer;
  let provider: JsonRpcProvider;
  let t: TestApp;
  let batchGateway: BatchGateway;
  let viem: PublicClient;
  let ethers: BrowserProvider;
  let key: string;
  let registry: Contract;
  let reverseRegistrar: string;
  let resolver: string;
  const deployer = new Wallet(Wallet.createRandom().privateKey);
  const holder = new Wallet(Wallet.createRandom().privateKey);
  const stranger = new Wallet(Wallet.createRandom().privateKey);
  const gatewaySigner = new Wallet(Wallet.createRandom().privateKey);

  const connect = (w: Wallet) => w.connect(provider);
  const post = (body: object) => request(t.http).post('/api/v1/primary-names').send(body);
  const store = (label: string, eth: string) =>
    request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'oak.eth', label, addresses: [{ coin: 60, value: eth }] });
  const getEnsName = (address: string) => viem.getEnsName({ address: address as `0x${string}` });

  beforeAll(async () => {
    rpc = await RpcServer.start(CHAIN_ID);
    provider = new JsonRpcProvider(rpc.url, CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
    const owner = connect(deployer);
    const deploy = async (abi: unknown[], bytecode: string, ...args: unknown[]) => {
      const contract = await new ContractFactory(abi as never, bytecode, owner).deploy(...args);
      await contract.waitForDeployment();
      return contract.getAddress();
    };
    const registryAddress = await deploy(ENSRegistry.abi, ENSRegistry.bytecode);
    registry = new Contract(registryAddress, ENSRegistry.abi, owner);
    reverseRegistrar = await deploy(ReverseRegistrar.abi, ReverseRegistrar.bytecode, registryAddress, ZeroAddress);
    const tx = async (p: Promise<{ wait(): Promise<unknown> }>) => (await p).wait();
    await tx(registry.setSubnodeOwner(ZeroHash, id('reverse'), deployer.address));
    await tx(registry.setSubnodeOwner(namehash('reverse'), id('addr'), reverseRegistrar));
    await tx(registry.setSubnodeOwner(ZeroHash, id('eth'), deployer.address));
    await tx(registry.setSubnodeOwner(namehash('eth'), id('oak'), deployer.address));

    batchGateway = await startBatchGateway();
    t = await createTestApp({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'primary-')),
      CCIP_SIGNER_KEY: gatewaySigner.privateKey,
      PUBLIC_URL,
      ENS_RPC_URL: rpc.url,
      ENS_CHAIN_ID: String(CHAIN_ID),
      ENS_REGISTRY_ADDRESS: registryAddress,
      ENS_REVERSE_REGISTRAR_ADDRESS: reverseRegistrar,
    });
    const server = await t.app.listen(0, '127.0.0.1');
    const gatewayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/ccip-read/{sender}/{data}.json`;
    resolver = await deploy(
      resolverArtifact.abi,
      resolverArtifact.bytecode,
      gatewayUrl,
      [gatewaySigner.address],
      deployer.address,
    );
    await tx(registry.setResolver(namehash('oak.eth'), resolver));
    const universalCode = compileContract('UniversalResolver.sol', 'UniversalResolver');
    const universalResolver = await deploy(universalCode.abi, universalCode.bytecode, registryAddress, [
      batchGateway.url,
    ]);

    const chain = defineChain({
      id: CHAIN_ID,
      name: 'in-process',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [rpc.url] } },
      contracts: { ensUniversalResolver: { address: universalResolver as `0x${string}` } },
    });
    viem = createPublicClient({ chain, transport: custom(rpc.node, { retryCount: 0 }) });
    ethers = evmProvider(rpc.node, registryAddress, universalResolver);
    ({ key } = await t.issueKey(['oak.eth']));
    await store('alice', holder.address).expect(201);
    await store('bob', stranger.address).expect(201);
  }, 180_000);

  afterAll(async () => {
    ethers?.destroy();
    provider?.destroy();
    await t?.close();
    await batchGateway?.close();
    await rpc?.close();
  });

  it("prepares the one transaction (HTTP and CLI alike), which the holder sends to ENS's ReverseRegistrar", async () => {
    const res = await request(t.http)
      .get(`/api/v1/primary-names/${holder.address.toLowerCase()}/setup`)
      .query({ resolver })
      .expect(200);
    expect(res.body).toEqual({
      to: reverseRegistrar,
      data: REVERSE_REGISTRAR.encodeFunctionData('claimWithResolver', [holder.address, resolver]),
      chainId: CHAIN_ID,
      note: expect.stringMatching(/default name/),
    });
    const cli = await execFileLogged(
      'cli',
      'node',
      ['dist/cli', 'primary-name', 'prepare', holder.address, '--resolver', resolver],
      {
        env: { ...process.env, ENS_CHAIN_ID: String(CHAIN_ID), ENS_REVERSE_REGISTRAR_ADDRESS: reverseRegistrar },
      },
    );
    expect(JSON.parse(cli.stdout)).toEqual(res.body);
    await request(t.http).get(`/api/v1/primary-names/${holder.address}/setup`).expect(400);

    const receipt = await (await connect(holder).sendTransaction({ to: res.body.to, data: res.body.data })).wait();
    expect(receipt!.status).toBe(1);
    const node = namehash(`${holder.address.slice(2).toLowerCase()}.addr.reverse`);
    expect(await registry.resolver(node)).toBe(resolver);
    expect(await registry.owner(node)).toBe(holder.address);
    // Nothing chosen yet: the gateway answers "" and clients see no name, not an error.
    expect(await getEnsName(holder.address)).toBeNull();
    expect(await ethers.lookupAddress(holder.address)).toBeNull();
  });

  it("the holder's signature chooses the name; viem getEnsName and ethers lookupAddress return it", async () => {
    const issuedAt = now();
    const res = await post(await signed(holder, 'alice.oak.eth', issuedAt)).expect(200);
    expect(res.body).toEqual({ address: holder.address, name: 'alice.oak.eth', verified: true });
    const found = await request(t.http).get(`/api/v1/primary-names/${holder.address.toLowerCase()}`).expect(200);
    expect(found.body).toEqual({ address: holder.address, name: 'alice.oak.eth', verified: true });
    expect(await getEnsName(holder.address)).toBe('alice.oak.eth');
    expect(await ethers.lookupAddress(holder.address)).toBe('alice.oak.eth');

    const audit = await request(t.http)
      .get('/api/v1/admin/audit')
      .query({ actor: `wallet:${holder.address}` })
      .set('x-admin-token', ADMIN_TOKEN)
      .expect(200);
    expect(audit.body.items[0]).toMatchObject({
      actor: `wallet:${holder.address}`,
      action: 'primary-name.set',
      subject: holder.address,
      before: { name: null },
      after: { name: 'alice.oak.eth' },
    });
  });

  it('refuses a replayed signature and a stale or early issuedAt with 409 STALE_SIGNATURE', async () => {
    const last = now();
    const accepted = await signed(holder, 'alice.oak.eth', last + 1);
    await post(accepted).expect(200);
    const replay = await post(accepted).expect(409);
    expect(replay.body).toMatchObject({ code: 'STALE_SIGNATURE', status: 409 });
    expect((await post(await signed(holder, 'alice.oak.eth', last)).expect(409)).body.code).toBe('STALE_SIGNATURE');
    const old = await post(await signed(holder, 'alice.oak.eth', now() - 601)).expect(409);
    expect(old.body.code).toBe('STALE_SIGNATURE');
    const ahead = await post(await signed(holder, 'alice.oak.eth', now() + 120)).expect(409);
    expect(ahead.body.code).toBe('STALE_SIGNATURE');
  });

  it('refuses a name the holder does not resolve to (409), one not stored (404), a foreign signature (401)', async () => {
    const mismatch = await post(await signed(holder, 'bob.oak.eth', now() + 5)).expect(409);
    expect(mismatch.body).toMatchObject({
      code: 'FORWARD_MISMATCH',
      detail: expect.stringContaining(stranger.address),
    });
    expect((await post(await signed(holder, 'nobody.oak.eth', now() + 5)).expect(404)).body.code).toBe(
      'SUBNAME_NOT_FOUND',
    );
    const foreign = await post(await signed(stranger, 'alice.oak.eth', now() + 5, holder.address)).expect(401);
    expect(foreign.body.code).toBe('UNAUTHORIZED');
    const unnormalised = await post(await signed(holder, 'Alice.oak.eth', now() + 5)).expect(400);
    expect(unnormalised.body.errors).toEqual([{ field: 'name', message: expect.stringContaining('alice.oak.eth') }]);
    // Nothing refused was stored: the name is still the one chosen.
    expect(await getEnsName(holder.address)).toBe('alice.oak.eth');
  });

  it("a write that moves the name's address succeeds, warns, and both clients return null within a second", async () => {
    const res = await store('alice', stranger.address).expect(200);
    expect(res.headers['x-primary-name-ended']).toBe(`${holder.address} alice.oak.eth`);
    // A write that moves nothing chosen carries no warning.
    expect((await store('bob', holder.address).expect(200)).headers['x-primary-name-ended']).toBeUndefined();
    await new Promise((r) => setTimeout(r, 1000));
    expect(await getEnsName(holder.address)).toBeNull();
    expect(await ethers.lookupAddress(holder.address)).toBeNull();
    const found = await request(t.http).get(`/api/v1/primary-names/${holder.address}`).expect(200);
    expect(found.body).toEqual({ address: holder.address, name: 'alice.oak.eth', verified: false });

    // The batch route says the same.
    await store('alice', holder.address).expect(200);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await getEnsName(holder.address)).toBe('alice.oak.eth');
    const batch = await request(t.http)
      .post('/api/v1/subnames/batch')
      .set('x-auth-token', key)
      .send({ items: [{ parentName: 'oak.eth', label: 'alice', addresses: [] }] })
      .expect(200);
    expect(batch.headers['x-primary-name-ended']).toBe(`${holder.address} alice.oak.eth`);
  });

  it('deleting a chosen name succeeds and says which primary name it ended', async () => {
    const frank = new Wallet(Wallet.createRandom().privateKey);
    await store('frank', frank.address).expect(201);
    await post(await signed(frank, 'frank.oak.eth', now())).expect(200);
    const res = await request(t.http).delete('/api/v1/subnames/frank.oak.eth').set('x-auth-token', key).expect(204);
    expect(res.headers['x-primary-name-ended']).toBe(`${frank.address} frank.oak.eth`);
    const found = await request(t.http).get(`/api/v1/primary-names/${frank.address}`).expect(200);
    expect(found.body).toEqual({ address: frank.address, name: 'frank.oak.eth', verified: false });
    // A name nobody chose is deleted without a warning.
    await store('gone', stranger.address).expect(201);
    const plain = await request(t.http).delete('/api/v1/subnames/gone.oak.eth').set('x-auth-token', key).expect(204);
    expect(plain.headers['x-primary-name-ended']).toBeUndefined();
  });

  it('an empty name clears the choice; an older signature cannot bring it back', async () => {
    await store('alice', holder.address).expect(200);
    const before = now() + 10;
    const earlier = await signed(holder, 'alice.oak.eth', before);
    const res = await post(await signed(holder, '', before + 1)).expect(200);
    expect(res.body).toEqual({ address: holder.address, name: '', verified: false });
    await request(t.http).get(`/api/v1/primary-names/${holder.address}`).expect(404);
    expect(await getEnsName(holder.address)).toBeNull();
    expect((await post(earlier).expect(409)).body.code).toBe('STALE_SIGNATURE');
  });

  it('of racing submissions with one issuedAt exactly one wins; the rest are STALE_SIGNATURE', async () => {
    const issuedAt = now() + 30;
    const bodies = await Promise.all(
      ['alice.oak.eth', '', 'alice.oak.eth', ''].map((name) => signed(holder, name, issuedAt)),
    );
    const answers = await Promise.all(bodies.map((body) => post(body)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.code)).toEqual(Array(3).fill('STALE_SIGNATURE'));
    const winner = answers.find((a) => a.status === 200)!.body as { name: string };
    const events = await request(t.http)
      .get('/api/v1/admin/audit')
      .query({ actor: `wallet:${holder.address.toLowerCase()}`, size: 100 })
      .set('x-admin-token', ADMIN_TOKEN)
      .expect(200);
    expect(events.body.items[0].after).toEqual({ name: winner.name === '' ? null : winner.name });
  });

  it("replaying the holder's audit from nothing gives the table: each before is the previous after", async () => {
    await store('alice', holder.address).expect(200);
    const start = now() + 40;
    for (const [i, name] of ['alice.oak.eth', '', 'alice.oak.eth'].entries())
      await post(await signed(holder, name, start + i)).expect(200);
    const events = await request(t.http)
      .get('/api/v1/admin/audit')
      .query({ actor: `wallet:${holder.address.toLowerCase()}`, size: 100 })
      .set('x-admin-token', ADMIN_TOKEN)
      .expect(200);
    const sets = (events.body.items as { action: string; before: unknown; after: { name: string | null } }[])
      .filter((e) => e.action.startsWith('primary-name.'))
      .reverse();
    expect(sets.length).toBeGreaterThanOrEqual(3);
    let name: string | null = null;
    for (const event of sets) {
      expect(event.before).toEqual({ name });
      name = event.after.name;
    }
    const found = await request(t.http).get(`/api/v1/primary-names/${holder.address}`).expect(200);
    expect(found.body.name).toBe(name);
  });

  it('an ERC-1271 contract account chooses its primary name with its owner key, checked on chain', async () => {
    const owner = new Wallet(Wallet.createRandom().privateKey);
    const code = compileContract('Erc1271Wallet.sol', 'Erc1271Wallet');
    const factory = new ContractFactory(code.abi as never, code.bytecode, connect(deployer));
    const wallet = await factory.deploy(owner.address);
    await wallet.waitForDeployment();
    const account = await wallet.getAddress();
    await store('carol', account).expect(201);

    const res = await post(await signed(owner, 'carol.oak.eth', now(), account)).expect(200);
    expect(res.body).toEqual({ address: account, name: 'carol.oak.eth', verified: true });
    // Another key's signature for the account is not the account's.
    const other = await post(await signed(stranger, 'carol.oak.eth', now() + 1, account)).expect(401);
    expect(other.body.code).toBe('UNAUTHORIZED');

    // The account sends the prepared transaction itself, through its owner.
    const setup = await request(t.http).get(`/api/v1/primary-names/${account}/setup`).query({ resolver }).expect(200);
    const send = new Contract(account, code.abi as never, connect(owner));
    await (await send.execute(setup.body.to, setup.body.data)).wait();
    expect(await getEnsName(account)).toBe('carol.oak.eth');
    expect(await ethers.lookupAddress(account)).toBe('carol.oak.eth');
  });

  it('a contract account not deployed yet chooses its name with an ERC-6492 signature', async () => {
    const owner = new Wallet(Wallet.createRandom().privateKey);
    const code = compileContract('Erc1271Wallet.sol', 'Erc1271WalletFactory');
    const factory = await new ContractFactory(code.abi as never, code.bytecode, connect(deployer)).deploy();
    await factory.waitForDeployment();
    const salt = id('dave');
    const account = (await factory.getFunction('addressOf')(owner.address, salt)) as string;
    expect(await provider.getCode(account)).toBe('0x');
    await store('dave', account).expect(201);

    const { signature, ...body } = await signed(owner, 'dave.oak.eth', now(), account);
    const deployCall = factory.interface.encodeFunctionData('deploy', [owner.address, salt]);
    const wrap = (inner: string) =>
      concat([
        AbiCoder.defaultAbiCoder().encode(['address', 'bytes', 'bytes'], [factory.target, deployCall, inner]),
        ERC6492_SUFFIX,
      ]);
    const foreign = (await signed(stranger, 'dave.oak.eth', body.issuedAt, account)).signature;
    expect((await post({ ...body, signature: wrap(foreign) }).expect(401)).body.code).toBe('UNAUTHORIZED');
    const res = await post({ ...body, signature: wrap(signature) }).expect(200);
    expect(res.body).toEqual({ address: account, name: 'dave.oak.eth', verified: true });
    // Checked by simulation: nothing was deployed.
    expect(await provider.getCode(account)).toBe('0x');
  });

  it('name() of any other name is "" (200, signed); a node that is not the name\'s is a 400', async () => {
    const gateway = new Interface(['function resolve(bytes name, bytes data)', 'function name(bytes32 node)']);
    const ask = (name: string, node = namehash(name)) =>
      request(t.http).get(
        `/api/v1/ccip-read/${resolver}/${gateway.encodeFunctionData('resolve', [
          dnsEncode(name),
          gateway.encodeFunctionData('name', [node]),
        ])}.json`,
      );
    const hex = holder.address.slice(2).toLowerCase();
    for (const name of ['xyz.addr.reverse', `${hex.slice(2)}.addr.reverse`, `${hex}.default.reverse`, 'bob.oak.eth']) {
      const { data } = (await ask(name).expect(200)).body as { data: string };
      const [result] = AbiCoder.defaultAbiCoder().decode(['bytes', 'uint64', 'bytes'], data);
      expect(AbiCoder.defaultAbiCoder().decode(['string'], result)[0]).toBe('');
    }
    const wrong = await ask(`${hex}.addr.reverse`, namehash(`${'ab'.repeat(20)}.addr.reverse`)).expect(400);
    expect(wrong.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'data.node' }] });
    // Signed on the signing thread, as production signs.
    await expectSignedOnTheThread(t);
  });
});
