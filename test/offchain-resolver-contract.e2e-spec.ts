import {
  AbiCoder,
  concat,
  type Contract,
  ContractFactory,
  dnsEncode,
  getAddress,
  Interface,
  JsonRpcProvider,
  namehash,
  Signature,
  SigningKey,
  Wallet,
} from 'ethers';
import artifact from '../contracts/OffchainResolver.json';
import { ccipAnswerDigest } from './support/ccip-reference';
import { RpcServer } from '../src/dev-chain/rpc-server';

const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
const URL_TEMPLATE = 'https://subnames.example.com/api/v1/ccip-read/{sender}/{data}.json';
const coder = AbiCoder.defaultAbiCoder();
const records = new Interface(['function addr(bytes32 node) view returns (address)']);
const ECDSA_ERRORS = new Interface([
  'error ECDSAInvalidSignatureLength(uint256 length)',
  'error ECDSAInvalidSignatureS(bytes32 s)',
]);

/**
 * The shipped resolver (contracts/OffchainResolver.json, the committed compiled artifact) on an in-process chain
 * reached through the loopback JSON-RPC server, driven by ethers' JsonRpcProvider and Wallets as an operator's tools
 * would: every function, and every refusal.
 */
describe('contracts/OffchainResolver: the shipped resolver contract', () => {
  let rpc: RpcServer;
  let provider: JsonRpcProvider;
  let owner: Wallet;
  let stranger: Wallet;
  let heir: Wallet;
  const gateway = new SigningKey(Wallet.createRandom().privateKey);
  const gatewayAddress = new Wallet(gateway.privateKey).address;
  let resolver: Contract;
  let address: string;

  const wallet = () => new Wallet(Wallet.createRandom().privateKey, provider);
  const connected = (signer: Wallet) => resolver.connect(signer) as Contract;
  const revertName = (e: unknown) => {
    const data = (e as { data?: string }).data ?? '0x';
    return (resolver.interface.parseError(data) ?? ECDSA_ERRORS.parseError(data))?.name;
  };

  beforeAll(async () => {
    rpc = await RpcServer.start(31337);
    provider = new JsonRpcProvider(rpc.url, 31337, { staticNetwork: true, cacheTimeout: -1 });
    [owner, stranger, heir] = [wallet(), wallet(), wallet()];
    const factory = new ContractFactory(artifact.abi, artifact.bytecode, owner);
    resolver = (await factory.deploy(URL_TEMPLATE, [gatewayAddress], owner.address)) as Contract;
    await resolver.waitForDeployment();
    address = await resolver.getAddress();
  });

  afterAll(async () => {
    provider?.destroy();
    await rpc?.close();
  });

  it('is the artifact of a pinned compiler for cancun, with its settings recorded', () => {
    expect(artifact.compiler.version).toMatch(/^0\.8\.37\+commit\./);
    expect(artifact.compiler.settings).toMatchObject({ evmVersion: 'cancun', optimizer: { enabled: true, runs: 200 } });
    expect(artifact.bytecode).toMatch(/^0x[0-9a-f]+$/);
  });

  it('deploys with its url, signers and owner, announcing them in events', async () => {
    expect(await resolver.url()).toBe(URL_TEMPLATE);
    expect(await resolver.signers(gatewayAddress)).toBe(true);
    expect(await resolver.signers(stranger.address)).toBe(false);
    expect(await resolver.owner()).toBe(owner.address);
    expect(await resolver.pendingOwner()).toBe('0x0000000000000000000000000000000000000000');
    const receipt = await resolver.deploymentTransaction()!.wait();
    const events = receipt!.logs.map((l) => resolver.interface.parseLog(l)).map((l) => [l!.name, ...l!.args]);
    expect(events).toEqual(
      expect.arrayContaining([
        ['UrlChanged', URL_TEMPLATE],
        ['SignerAdded', gatewayAddress],
        ['OwnershipTransferred', '0x0000000000000000000000000000000000000000', owner.address],
      ]),
    );
  });

  it('refuses the zero owner at deployment', async () => {
    const factory = new ContractFactory(artifact.abi, artifact.bytecode, owner);
    const e = await factory.deploy(URL_TEMPLATE, [], '0x0000000000000000000000000000000000000000').catch((x) => x);
    expect(revertName(e)).toBe('OwnableInvalidOwner');
  });

  it('advertises ENSIP-10 and ERC-165 only (no ERC-7996 features, no plain record interfaces)', async () => {
    expect(await resolver.supportsInterface('0x9061b923')).toBe(true);
    expect(await resolver.supportsInterface('0x01ffc9a7')).toBe(true);
    for (const id of ['0x582de3e7', '0x3b3b57de', '0x59d1d43c', '0xffffffff']) {
      expect(await resolver.supportsInterface(id)).toBe(false);
    }
  });

  describe('resolve and resolveWithProof', () => {
    const name = 'alice.oak.eth';
    const inner = records.encodeFunctionData('addr', [namehash(name)]);
    const request = () => resolver.interface.encodeFunctionData('resolve', [dnsEncode(name), inner]);
    const result = coder.encode(['address'], ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed']);
    const now = () => Math.floor(Date.now() / 1000);
    const answer = (opts: { key?: SigningKey; expires?: bigint; sig?: string; sender?: string } = {}) => {
      const expires = opts.expires ?? BigInt(now() + 300);
      const digest = ccipAnswerDigest(opts.sender ?? address, expires, request(), result);
      const sig = opts.sig ?? (opts.key ?? gateway).sign(digest).serialized;
      return coder.encode(['bytes', 'uint64', 'bytes'], [result, expires, sig]);
    };
    const withProof = (response: string) => resolver.resolveWithProof(response, request()) as Promise<string>;

    it('resolve reverts OffchainLookup(this, [url], callData, resolveWithProof, callData)', async () => {
      const e = await resolver.resolve(dnsEncode(name), inner).catch((x: unknown) => x);
      const lookup = resolver.interface.parseError((e as { data: string }).data)!;
      expect(lookup.name).toBe('OffchainLookup');
      const [sender, urls, callData, callback, extraData] = lookup.args;
      expect(sender).toBe(address);
      expect([...urls]).toEqual([URL_TEMPLATE]);
      expect(callData).toBe(request());
      expect(callback).toBe(resolver.interface.getFunction('resolveWithProof')!.selector);
      expect(extraData).toBe(request());
    });

    it('makeSignatureHash is the digest the service signs', async () => {
      const expires = 1_800_000_000n;
      expect(await resolver.makeSignatureHash(address, expires, request(), result)).toBe(
        ccipAnswerDigest(address, expires, request(), result),
      );
    });

    it("accepts a trusted signer's fresh answer and returns the result", async () => {
      expect(await withProof(answer())).toBe(result);
    });

    it('refuses an expired answer', async () => {
      const e = await withProof(answer({ expires: BigInt(now() - 10) })).catch((x: unknown) => x);
      expect(revertName(e)).toBe('SignatureExpired');
    });

    it('refuses an answer signed by a key it does not trust, or for another resolver', async () => {
      const stray = new SigningKey(Wallet.createRandom().privateKey);
      expect(revertName(await withProof(answer({ key: stray })).catch((x: unknown) => x))).toBe('InvalidSigner');
      const elsewhere = answer({ sender: stranger.address });
      expect(revertName(await withProof(elsewhere).catch((x: unknown) => x))).toBe('InvalidSigner');
    });

    it('refuses a 64-byte (EIP-2098) signature and the high-s twin of a good one', async () => {
      const expires = BigInt(now() + 300);
      const sig = Signature.from(gateway.sign(ccipAnswerDigest(address, expires, request(), result)));
      const compact = answer({ expires, sig: sig.compactSerialized });
      expect(revertName(await withProof(compact).catch((x: unknown) => x))).toBe('ECDSAInvalidSignatureLength');
      const highS = concat([
        sig.r,
        `0x${(N - BigInt(sig.s)).toString(16).padStart(64, '0')}`,
        sig.v === 27 ? '0x1c' : '0x1b',
      ]);
      expect(revertName(await withProof(answer({ expires, sig: highS })).catch((x: unknown) => x))).toBe(
        'ECDSAInvalidSignatureS',
      );
    });
  });

  it('setUrl: the owner moves the gateway (UrlChanged); anyone else is refused', async () => {
    const moved = 'https://elsewhere.example.com/{sender}/{data}.json';
    const e = await connected(stranger)
      .setUrl(moved)
      .catch((x: unknown) => x);
    expect(revertName(e)).toBe('OwnableUnauthorizedAccount');
    const receipt = await (await connected(owner).setUrl(moved)).wait();
    expect(resolver.interface.parseLog(receipt.logs[0])!.args[0]).toBe(moved);
    expect(await resolver.url()).toBe(moved);
    await (await connected(owner).setUrl(URL_TEMPLATE)).wait();
  });

  it('setSigners: the owner adds and removes in one transaction (events); anyone else is refused', async () => {
    const next = Wallet.createRandom().address;
    const e = await connected(stranger)
      .setSigners([stranger.address], [])
      .catch((x: unknown) => x);
    expect(revertName(e)).toBe('OwnableUnauthorizedAccount');
    expect(await resolver.signers(stranger.address)).toBe(false);
    const receipt = await (await connected(owner).setSigners([next], [gatewayAddress])).wait();
    const events = receipt.logs
      .map((l: never) => resolver.interface.parseLog(l))
      .map((l: never) => [l!['name'], l!['args'][0]]);
    expect(events).toEqual([
      ['SignerAdded', next],
      ['SignerRemoved', gatewayAddress],
    ]);
    expect(await resolver.signers(next)).toBe(true);
    expect(await resolver.signers(gatewayAddress)).toBe(false);
    await (await connected(owner).setSigners([gatewayAddress], [next])).wait();
    expect(await resolver.signers(gatewayAddress)).toBe(true);
  });

  it('two-step ownership: only the pending owner accepts, then only the new owner administers', async () => {
    const refused = await connected(stranger)
      .transferOwnership(stranger.address)
      .catch((x: unknown) => x);
    expect(revertName(refused)).toBe('OwnableUnauthorizedAccount');
    await (await connected(owner).transferOwnership(heir.address)).wait();
    expect(await resolver.owner()).toBe(owner.address);
    expect(await resolver.pendingOwner()).toBe(heir.address);
    const early = await connected(stranger)
      .acceptOwnership()
      .catch((x: unknown) => x);
    expect(revertName(early)).toBe('OwnableUnauthorizedAccount');
    await (await connected(heir).acceptOwnership()).wait();
    expect(getAddress(await resolver.owner())).toBe(heir.address);
    const old = await connected(owner)
      .setUrl('https://x.example/{sender}/{data}.json')
      .catch((x: unknown) => x);
    expect(revertName(old)).toBe('OwnableUnauthorizedAccount');
    await (await connected(heir).setUrl(URL_TEMPLATE)).wait();
  });
});
