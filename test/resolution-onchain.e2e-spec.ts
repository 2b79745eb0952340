import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import {
  AbiCoder,
  BrowserProvider,
  concat,
  Contract,
  dnsEncode,
  encodeBase58,
  getAddress,
  id,
  Interface,
  namehash,
  Signature,
  SigningKey,
  Wallet,
  ZeroHash,
} from 'ethers';
import request from 'supertest';
import { ccipAnswerDigest } from './support/ccip-reference';
import resolverArtifact from '../contracts/OffchainResolver.json';
import { compileContract } from './contracts/compile';
import { CallResult, Evm } from '../src/dev-chain/evm';
import { EvmEip1193, evmProvider } from './support/evm-provider';
import { createTestApp, expectSignedOnTheThread, TestApp } from './support/test-app';

const CHAIN_ID = 31337;
const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
const gateway = Wallet.createRandom();
const deployer = Wallet.createRandom().address;
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BASE = '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB';
const DEFAULT_EVM = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const CAROL = '0x1111111111111111111111111111111111111111';
const IPFS = 'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4';
const BTC = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const BTC_BYTES = '0x76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac';
const COIN = { btc: 0n, base: 2147492101n, op: 2147483658n, default: 2147483648n };

const records = new Interface([
  'function addr(bytes32 node) view returns (address)',
  'function addr(bytes32 node, uint256 coinType) view returns (bytes)',
  'function text(bytes32 node, string key) view returns (string)',
  'function contenthash(bytes32 node) view returns (bytes)',
  'function multicall(bytes[] data) returns (bytes[] results)',
]);
const coder = AbiCoder.defaultAbiCoder();

/**
 * A wallet's resolution, end to end: an ENS registry (test/contracts) and the shipped offchain resolver
 * (contracts/OffchainResolver.json, OpenZeppelin 5 ECDSA) on an in-process EVM, ethers v6 pointed at that registry (EnsPlugin), and the service as the resolver's
 * CCIP-Read gateway on 127.0.0.1. ethers runs its own OffchainLookup handling: the revert, the gateway fetch, the
 * resolveWithProof call in which the contract checks the service's signature.
 */
describe('on chain: names resolve through ethers, an offchain resolver and the CCIP-Read gateway', () => {
  let evm: Evm;
  let t: TestApp;
  let shim: EvmEip1193;
  let provider: BrowserProvider;
  let resolverAbi: Interface;
  let registry: string;
  let getResolver: string;
  let postResolver: string;
  let gatewayUrl: string;
  let chain: number;

  const send = async (to: string, data: string, from = deployer): Promise<CallResult> => {
    const r = await evm.call(chain, { from, to, data, timestamp: shim.now() });
    if (!r.success) throw new Error(`transaction to ${to} reverted: ${r.returnData}`);
    return r;
  };

  beforeAll(async () => {
    const registryCode = compileContract('ENSRegistry.sol', 'ENSRegistry');
    resolverAbi = new Interface(resolverArtifact.abi);
    const registryAbi = new Interface(registryCode.abi as string[]);
    evm = Evm.start();
    chain = await evm.chain(CHAIN_ID);
    shim = new EvmEip1193(evm, chain, CHAIN_ID);

    t = await createTestApp({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'resolution-')),
      CCIP_SIGNER_KEY: gateway.privateKey,
    });
    const server = await t.app.listen(0, '127.0.0.1');
    gatewayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/ccip-read`;

    registry = getAddress(await evm.deploy(chain, deployer, registryCode.bytecode));
    const deployResolver = async (url: string, signers: string[]) =>
      getAddress(
        await evm.deploy(
          chain,
          deployer,
          concat([
            resolverArtifact.bytecode,
            coder.encode(['string', 'address[]', 'address'], [url, signers, deployer]),
          ]),
        ),
      );
    // GET with {sender}/{data}.json, as most deployments; POST (no {data} in the URL) for pine.eth.
    getResolver = await deployResolver(`${gatewayUrl}/{sender}/{data}.json`, [gateway.address]);
    postResolver = await deployResolver(gatewayUrl, [gateway.address]);
    await send(registry, registryAbi.encodeFunctionData('setSubnodeOwner', [ZeroHash, id('eth'), deployer]));
    for (const [label, resolver] of [
      ['oak', getResolver],
      ['pine', postResolver],
    ]) {
      await send(registry, registryAbi.encodeFunctionData('setSubnodeOwner', [namehash('eth'), id(label), deployer]));
      await send(registry, registryAbi.encodeFunctionData('setResolver', [namehash(`${label}.eth`), resolver]));
    }
    provider = evmProvider(shim, registry);

    const { key } = await t.issueKey(['oak.eth', 'pine.eth']);
    const store = (body: object) =>
      request(t.http).post('/api/v1/subnames').set('x-auth-token', key).send(body).expect(201);
    await store({
      parentName: 'oak.eth',
      label: 'alice',
      texts: [
        { key: 'com.github', value: 'alice' },
        { key: 'avatar', value: 'https://example.com/alice.png' },
      ],
      addresses: [
        { coin: 60, value: ETH },
        { coin: 0, value: BTC },
        { coin: 2147492101, value: BASE },
        { coin: 2147483648, value: DEFAULT_EVM },
      ],
      contenthash: IPFS,
      ttl: 120,
    });
    await store({ parentName: 'oak.eth', label: 'bob', addresses: [{ coin: 2147483648, value: DEFAULT_EVM }] });
    await store({ parentName: 'pine.eth', label: 'carol', addresses: [{ coin: 60, value: CAROL }] });
  }, 120_000);

  afterAll(async () => {
    provider?.destroy();
    await t?.close();
    await evm?.stop();
  });

  /** resolve(name, call) on a resolver through ethers' CCIP-Read, returning the inner call's result bytes. */
  const resolveRaw = async (name: string, call: string, resolver = getResolver): Promise<string> => {
    const contract = new Contract(resolver, resolverAbi, provider);
    return (await contract.resolve(dnsEncode(name), call, { enableCcipRead: true })) as string;
  };
  const addrCall = (name: string, coinType: bigint) =>
    records.encodeFunctionData('addr(bytes32,uint256)', [namehash(name), coinType]);

  it('provider.resolveName finds the coin-60 address, in any letter case of the name', async () => {
    expect(await provider.resolveName('alice.oak.eth')).toBe(ETH);
    expect(await provider.resolveName('Alice.OAK.eth')).toBe(ETH);
    const resolver = await provider.getResolver('alice.oak.eth');
    expect(resolver!.address).toBe(getResolver);
    expect(await resolver!.supportsWildcard()).toBe(true);
  });

  it('a name that is not stored resolves to nothing (a signed empty answer, not an error)', async () => {
    expect(await provider.resolveName('nobody.oak.eth')).toBeNull();
    const resolver = await provider.getResolver('nobody.oak.eth');
    expect(await resolver!.getText('avatar')).toBe('');
  });

  it('resolver.getText and resolver.getContentHash', async () => {
    const resolver = (await provider.getResolver('alice.oak.eth'))!;
    expect(await resolver.getText('com.github')).toBe('alice');
    expect(await resolver.getText('avatar')).toBe('https://example.com/alice.png');
    expect(await resolver.getText('url')).toBe('');
    // ethers shows an IPFS contenthash as the CIDv0 of its multihash; the bytes are the stored CID's.
    const bytes = coder.decode(
      ['bytes'],
      await resolveRaw('alice.oak.eth', records.encodeFunctionData('contenthash', [namehash('alice.oak.eth')])),
    )[0] as string;
    expect(bytes).toBe('0xe3010170122029f2d17be6139079dc48696d1f582a8530eb9805b561eda517e22a892c7e3f1f');
    expect(await resolver.getContentHash()).toBe(`ipfs://${encodeBase58(`0x${bytes.slice(10)}`)}`);
  });

  it('raw resolve(name, addr(node, coinType)): btc in its ENSIP-9 form, an ENSIP-11 chain, the ENSIP-19 fallback', async () => {
    const decodeBytes = (result: string) => coder.decode(['bytes'], result)[0] as string;
    expect(decodeBytes(await resolveRaw('alice.oak.eth', addrCall('alice.oak.eth', COIN.btc)))).toBe(BTC_BYTES);
    expect(decodeBytes(await resolveRaw('alice.oak.eth', addrCall('alice.oak.eth', COIN.base)))).toBe(
      BASE.toLowerCase(),
    );
    // op has no record of its own on alice or bob: the default EVM address answers (ENSIP-19).
    expect(decodeBytes(await resolveRaw('alice.oak.eth', addrCall('alice.oak.eth', COIN.op)))).toBe(
      DEFAULT_EVM.toLowerCase(),
    );
    expect(decodeBytes(await resolveRaw('bob.oak.eth', addrCall('bob.oak.eth', COIN.base)))).toBe(
      DEFAULT_EVM.toLowerCase(),
    );
    // Not for a non-EVM coin.
    expect(decodeBytes(await resolveRaw('bob.oak.eth', addrCall('bob.oak.eth', COIN.btc)))).toBe('0x');
    // ethers' own EVM-chain lookup sees the same.
    const bob = (await provider.getResolver('bob.oak.eth'))!;
    expect(await bob.getAddress(COIN.op)).toBe(DEFAULT_EVM);
    expect(await (await provider.getResolver('alice.oak.eth'))!.getAddress(COIN.base)).toBe(BASE);
  });

  it('multicall: several records under one signature, each answered as if called alone', async () => {
    const node = namehash('alice.oak.eth');
    const calls = [
      records.encodeFunctionData('text', [node, 'com.github']),
      records.encodeFunctionData('addr(bytes32)', [node]),
      addrCall('alice.oak.eth', COIN.btc),
      records.encodeFunctionData('contenthash', [node]),
      records.encodeFunctionData('text', [node, 'missing']),
    ];
    const result = await resolveRaw('alice.oak.eth', records.encodeFunctionData('multicall', [calls]));
    const [parts] = records.decodeFunctionResult('multicall', result) as unknown as [string[]];
    expect(parts).toHaveLength(5);
    for (const [i, call] of calls.entries()) {
      expect(parts[i]).toBe(await resolveRaw('alice.oak.eth', call));
    }
    expect(records.decodeFunctionResult('text', parts[0])[0]).toBe('alice');
    expect(records.decodeFunctionResult('addr(bytes32)', parts[1])[0]).toBe(ETH);
    expect(records.decodeFunctionResult('text', parts[4])[0]).toBe('');
  });

  it('resolves through a resolver whose URL has no {data}: ethers POSTs {sender, data}', async () => {
    expect(await provider.resolveName('carol.pine.eth')).toBe(getAddress(CAROL));
    expect((await provider.getResolver('carol.pine.eth'))!.address).toBe(postResolver);
  });

  describe('the contract accepts only the right answer', () => {
    const name = 'alice.oak.eth';
    const callData = (n: string) =>
      resolverAbi.encodeFunctionData('resolve', [
        dnsEncode(n),
        records.encodeFunctionData('addr(bytes32)', [namehash(n)]),
      ]);
    /** The gateway's answer to `request` for `sender`, as ethers fetches it. */
    const fetchAnswer = async (requestData: string, sender = getResolver) => {
      const res = await fetch(`${gatewayUrl}/${sender.toLowerCase()}/${requestData}.json`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: string }).data;
    };
    const decoded = (answer: string) => {
      const [result, expires, sig] = coder.decode(['bytes', 'uint64', 'bytes'], answer);
      return { result: result as string, expires: expires as bigint, sig: sig as string };
    };
    const encode = (a: { result: string; expires: bigint; sig: string }) =>
      coder.encode(['bytes', 'uint64', 'bytes'], [a.result, a.expires, a.sig]);
    const withProof = (answer: string, extraData: string, opts: { to?: string; timestamp?: number } = {}) =>
      evm.call(chain, {
        from: deployer,
        to: opts.to ?? getResolver,
        data: resolverAbi.encodeFunctionData('resolveWithProof', [answer, extraData]),
        timestamp: opts.timestamp ?? shim.now(),
      });
    const outcome = (r: CallResult) => {
      if (r.success) return resolverAbi.decodeFunctionResult('resolveWithProof', r.returnData)[0] as string;
      const parsed = resolverAbi.parseError(r.returnData);
      return parsed ? `${parsed.name}` : r.returnData;
    };

    it('checks the digest the service signs: the contract computes the same one', async () => {
      const req = callData(name);
      const { result, expires } = decoded(await fetchAnswer(req));
      const r = await evm.call(chain, {
        from: deployer,
        to: getResolver,
        data: resolverAbi.encodeFunctionData('makeSignatureHash', [getResolver, expires, req, result]),
        timestamp: shim.now(),
      });
      expect(resolverAbi.decodeFunctionResult('makeSignatureHash', r.returnData)[0]).toBe(
        ccipAnswerDigest(getResolver, expires, req, result),
      );
    });

    it('accepts the answer as it came, and refuses it with its result tampered with', async () => {
      const req = callData(name);
      const answer = decoded(await fetchAnswer(req));
      expect(outcome(await withProof(encode(answer), req))).toBe(coder.encode(['address'], [ETH]));
      const tampered = { ...answer, result: coder.encode(['address'], [deployer]) };
      expect(outcome(await withProof(encode(tampered), req))).toBe('InvalidSigner');
      const longer = { ...answer, result: `${answer.result}00` };
      expect(outcome(await withProof(encode(longer), req))).toBe('InvalidSigner');
      const later = { ...answer, expires: answer.expires + 3600n };
      expect(outcome(await withProof(encode(later), req))).toBe('InvalidSigner');
    });

    it('refuses an answer replayed for another request, or for another resolver', async () => {
      const bobsAnswer = await fetchAnswer(callData('bob.oak.eth'));
      expect(outcome(await withProof(bobsAnswer, callData('bob.oak.eth')))).not.toBe('InvalidSigner');
      expect(outcome(await withProof(bobsAnswer, callData(name)))).toBe('InvalidSigner');
      // Signed for the GET resolver: the POST resolver, which trusts the same signer, refuses it.
      const req = callData(name);
      const answer = await fetchAnswer(req);
      expect(outcome(await withProof(answer, req, { to: postResolver }))).toBe('InvalidSigner');
      expect(outcome(await withProof(await fetchAnswer(req, postResolver), req, { to: postResolver }))).not.toBe(
        'InvalidSigner',
      );
    });

    it('refuses the same answer signed by another key, and the high-s twin of the real signature', async () => {
      const req = callData(name);
      const answer = decoded(await fetchAnswer(req));
      const stranger = new SigningKey(Wallet.createRandom().privateKey);
      const forged = {
        ...answer,
        sig: stranger.sign(ccipAnswerDigest(getResolver, answer.expires, req, answer.result)).serialized,
      };
      expect(outcome(await withProof(encode(forged), req))).toBe('InvalidSigner');
      const sig = Signature.from(answer.sig);
      const highS = concat([
        sig.r,
        `0x${(N - BigInt(sig.s)).toString(16).padStart(64, '0')}`,
        sig.v === 27 ? '0x1c' : '0x1b',
      ]);
      const r = await withProof(encode({ ...answer, sig: highS }), req);
      expect(r.success).toBe(false);
      expect(r.returnData.slice(0, 10)).toBe(
        new Interface(['error ECDSAInvalidSignatureS(bytes32)']).getError('ECDSAInvalidSignatureS')!.selector,
      );
    });

    it('refuses an expired answer once the chain clock passes expires (and so does ethers)', async () => {
      const req = callData(name);
      const answer = decoded(await fetchAnswer(req));
      const now = Math.floor(Date.now() / 1000);
      // Aligned to windows of a fifth of the 300 s lifetime, so shared caches see equal bytes (section 16).
      expect(Number(answer.expires) % 60).toBe(0);
      expect(Number(answer.expires) - now).toBeGreaterThanOrEqual(239);
      expect(Number(answer.expires) - now).toBeLessThanOrEqual(300);
      expect(outcome(await withProof(encode(answer), req, { timestamp: Number(answer.expires) }))).not.toBe(
        'SignatureExpired',
      );
      expect(outcome(await withProof(encode(answer), req, { timestamp: Number(answer.expires) + 1 }))).toBe(
        'SignatureExpired',
      );
      // The whole path with the chain six minutes ahead: every fresh answer is already expired there.
      shim.clockOffsetSeconds = 360;
      try {
        expect(await provider.resolveName(name)).toBeNull();
      } finally {
        shim.clockOffsetSeconds = 0;
      }
      expect(await provider.resolveName(name)).toBe(ETH);
    });
  });

  it('signed on the signing thread, as production signs: signing_thread_up 1 after its signatures', async () => {
    await expectSignedOnTheThread(t);
  });
});
