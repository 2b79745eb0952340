import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AbiCoder,
  BrowserProvider,
  concat,
  Contract,
  dnsEncode,
  getAddress,
  id,
  Interface,
  namehash,
  Wallet,
  ZeroAddress,
  ZeroHash,
} from 'ethers';
import request from 'supertest';
import { createPublicClient, custom, defineChain, type PublicClient } from 'viem';
import { normalize } from 'viem/ens';
import resolverArtifact from '../contracts/OffchainResolver.json';
import { compileContract } from './contracts/compile';
import { Evm } from '../src/dev-chain/evm';
import { BatchGateway, startBatchGateway } from './support/batch-gateway';
import { EvmEip1193, evmProvider } from './support/evm-provider';
import { createTestApp, expectSignedOnTheThread, TestApp } from './support/test-app';

const CHAIN_ID = 31337;
const gatewaySigner = Wallet.createRandom();
const deployer = Wallet.createRandom().address;
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BASE = '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB';
const DEFAULT_EVM = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const COIN = { base: 2147492101, op: 2147483658 };
const AGENT_REGISTRATION = 'agent-registration[0x000100000101148004a169fb4a3325136eb29fa0ceb6d2e539a432][167]';
const coder = AbiCoder.defaultAbiCoder();
const records = new Interface([
  'function addr(bytes32 node) view returns (address)',
  'function text(bytes32 node, string key) view returns (string)',
]);

/** Serves the avatar image that viem checks (a HEAD for an image content type) before it returns an https avatar. */
async function startImageServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/alice.png`, server };
}

/**
 * The path today's clients take (ENSIP-23, ENSIP-21): a Universal Resolver on chain finds the parent's wildcard
 * resolver, turns its OffchainLookup into a batch gateway query, and hands the gateway's signed answer back to the
 * resolver, which verifies it. viem (>= 2.35) answers the batch query in-process; ethers (>= 6.17) finds the
 * resolver through the Universal Resolver and, for primary names, reaches the gateway through an HTTP batch gateway.
 */
describe('resolution through the Universal Resolver: viem and ethers as wallets run them today', () => {
  let evm: Evm;
  let chain: number;
  let shim: EvmEip1193;
  let t: TestApp;
  let batchGateway: BatchGateway;
  let image: { url: string; server: Server };
  let universalResolver: string;
  let offchainResolver: string;
  let viem: PublicClient;
  let ethers: BrowserProvider;

  const send = async (to: string, data: string) => {
    const r = await evm.call(chain, { from: deployer, to, data, timestamp: shim.now() });
    if (!r.success) throw new Error(`transaction to ${to} reverted: ${r.returnData}`);
  };
  const deploy = async (bytecode: string, args: string) =>
    getAddress(await evm.deploy(chain, deployer, concat([bytecode, args])));

  beforeAll(async () => {
    const registryCode = compileContract('ENSRegistry.sol', 'ENSRegistry');
    const universalCode = compileContract('UniversalResolver.sol', 'UniversalResolver');
    const registryAbi = new Interface(registryCode.abi as string[]);
    evm = Evm.start();
    chain = await evm.chain(CHAIN_ID);
    shim = new EvmEip1193(evm, chain, CHAIN_ID);
    batchGateway = await startBatchGateway();
    image = await startImageServer();

    t = await createTestApp({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'universal-')),
      CCIP_SIGNER_KEY: gatewaySigner.privateKey,
    });
    const server = await t.app.listen(0, '127.0.0.1');
    const gatewayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/ccip-read/{sender}/{data}.json`;

    const registry = await deploy(registryCode.bytecode, '0x');
    offchainResolver = await deploy(
      resolverArtifact.bytecode,
      coder.encode(['string', 'address[]', 'address'], [gatewayUrl, [gatewaySigner.address], deployer]),
    );
    universalResolver = await deploy(
      universalCode.bytecode,
      coder.encode(['address', 'string[]'], [registry, [batchGateway.url]]),
    );
    await send(registry, registryAbi.encodeFunctionData('setSubnodeOwner', [ZeroHash, id('eth'), deployer]));
    await send(registry, registryAbi.encodeFunctionData('setSubnodeOwner', [namehash('eth'), id('oak'), deployer]));
    await send(registry, registryAbi.encodeFunctionData('setResolver', [namehash('oak.eth'), offchainResolver]));
    // elm.eth exists with no resolver: its names have none either.
    await send(registry, registryAbi.encodeFunctionData('setSubnodeOwner', [namehash('eth'), id('elm'), deployer]));

    const testChain = defineChain({
      id: CHAIN_ID,
      name: 'in-process',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [] } },
      contracts: { ensUniversalResolver: { address: universalResolver as `0x${string}` } },
    });
    // No retries: viem takes a revert thrown by an EIP-1193 object for an unknown error and retries it (an http
    // transport's revert it does not), which would only slow every OffchainLookup down by a second.
    viem = createPublicClient({ chain: testChain, transport: custom(shim, { retryCount: 0 }) });
    ethers = evmProvider(shim, registry, universalResolver);

    const { key } = await t.issueKey(['oak.eth']);
    const store = (body: object) =>
      request(t.http).post('/api/v1/subnames').set('x-auth-token', key).send(body).expect(201);
    await store({
      parentName: 'oak.eth',
      label: 'alice',
      texts: [
        { key: 'com.github', value: 'alice' },
        { key: 'avatar', value: image.url },
        { key: 'agent-endpoint[mcp]', value: 'https://agents.example/alice/mcp' },
        { key: AGENT_REGISTRATION, value: '1' },
      ],
      addresses: [
        { coin: 60, value: ETH },
        { coin: COIN.base, value: BASE },
        { coin: 2147483648, value: DEFAULT_EVM },
      ],
    });
    await store({ parentName: 'oak.eth', label: 'bob', texts: [{ key: 'url', value: 'https://bob.example' }] });
  }, 120_000);

  afterAll(async () => {
    ethers?.destroy();
    await t?.close();
    await batchGateway?.close();
    await new Promise((resolve) => image?.server.close(resolve));
    await evm?.stop();
  });

  describe('viem', () => {
    it('getEnsAddress: the coin-60 address', async () => {
      expect(await viem.getEnsAddress({ name: normalize('alice.oak.eth') })).toBe(ETH);
    });

    it('getEnsAddress for a chain: its own record, else the default EVM address (ENSIP-19)', async () => {
      const base = await viem.getEnsAddress({ name: 'alice.oak.eth', coinType: BigInt(COIN.base) });
      expect(base).toBe(BASE.toLowerCase());
      const op = await viem.getEnsAddress({ name: 'alice.oak.eth', coinType: BigInt(COIN.op) });
      expect(op).toBe(DEFAULT_EVM.toLowerCase());
    });

    it('getEnsText, including the ENSIP-25/26 agent keys', async () => {
      expect(await viem.getEnsText({ name: 'alice.oak.eth', key: 'com.github' })).toBe('alice');
      expect(await viem.getEnsText({ name: 'alice.oak.eth', key: 'agent-endpoint[mcp]' })).toBe(
        'https://agents.example/alice/mcp',
      );
      expect(await viem.getEnsText({ name: 'alice.oak.eth', key: AGENT_REGISTRATION })).toBe('1');
    });

    it('getEnsAvatar: the stored https avatar, once viem has seen that it is an image', async () => {
      expect(await viem.getEnsAvatar({ name: 'alice.oak.eth' })).toBe(image.url);
    });

    it('null, never an error, for what is not stored', async () => {
      expect(await viem.getEnsAddress({ name: 'bob.oak.eth' })).toBeNull();
      expect(await viem.getEnsAddress({ name: 'nobody.oak.eth' })).toBeNull();
      expect(await viem.getEnsAddress({ name: 'nobody.oak.eth', coinType: BigInt(COIN.base) })).toBeNull();
      expect(await viem.getEnsText({ name: 'alice.oak.eth', key: 'url' })).toBeNull();
      expect(await viem.getEnsText({ name: 'nobody.oak.eth', key: 'url' })).toBeNull();
      expect(await viem.getEnsAvatar({ name: 'bob.oak.eth' })).toBeNull();
      // No resolver at all: the Universal Resolver's ResolverNotFound, which viem turns into null.
      expect(await viem.getEnsAddress({ name: 'x.elm.eth' })).toBeNull();
    });
  });

  describe('ethers 6.17', () => {
    it('finds the wildcard resolver through the Universal Resolver', async () => {
      const resolver = await ethers.getResolver('alice.oak.eth');
      expect(resolver!.address).toBe(offchainResolver);
      expect(await resolver!.supportsWildcard()).toBe(true);
      // No ERC-7996 features: its answers are signed for the resolver as sender, which a batch gateway forwards.
      const erc165 = new Contract(offchainResolver, ['function supportsInterface(bytes4) view returns (bool)'], ethers);
      expect(await erc165.supportsInterface('0x582de3e7')).toBe(false);
      expect(await erc165.supportsInterface('0x9061b923')).toBe(true);
    });

    it('resolveName and getResolver().getText give the stored values', async () => {
      expect(await ethers.resolveName('alice.oak.eth')).toBe(ETH);
      expect(await ethers.resolveName('Alice.OAK.eth')).toBe(ETH);
      const resolver = (await ethers.getResolver('alice.oak.eth'))!;
      expect(await resolver.getText('com.github')).toBe('alice');
      expect(await resolver.getText('agent-endpoint[mcp]')).toBe('https://agents.example/alice/mcp');
      expect(await resolver.getAddress(COIN.op)).toBe(DEFAULT_EVM);
    });

    it("the Universal Resolver's resolve() through an HTTP batch gateway, as ensjs and ENS's app call it", async () => {
      const universal = new Contract(
        universalResolver,
        ['function resolve(bytes name, bytes data) view returns (bytes result, address resolver)'],
        ethers,
      );
      const node = namehash('alice.oak.eth');
      const before = batchGateway.requests;
      const [result, resolver] = (await universal.resolve(
        dnsEncode('alice.oak.eth'),
        records.encodeFunctionData('text', [node, 'agent-endpoint[mcp]']),
        { enableCcipRead: true },
      )) as [string, string];
      expect(resolver).toBe(offchainResolver);
      expect(records.decodeFunctionResult('text', result)[0]).toBe('https://agents.example/alice/mcp');
      expect(batchGateway.requests).toBe(before + 1);
      const [missing] = (await universal.resolve(
        dnsEncode('nobody.oak.eth'),
        records.encodeFunctionData('addr(bytes32)', [namehash('nobody.oak.eth')]),
        { enableCcipRead: true },
      )) as [string];
      expect(records.decodeFunctionResult('addr(bytes32)', missing)[0]).toBe(ZeroAddress);
      // The gateway signed its answers on the signing thread, as production signs.
      await expectSignedOnTheThread(t);
    });

    it('null (or the empty text) for what is not stored, never an error', async () => {
      expect(await ethers.resolveName('nobody.oak.eth')).toBeNull();
      expect(await ethers.resolveName('bob.oak.eth')).toBeNull();
      expect(await (await ethers.getResolver('bob.oak.eth'))!.getText('avatar')).toBe('');
    });
  });
});
