import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { Logger } from '@nestjs/common';
import fc from 'fast-check';
import {
  AbiCoder,
  concat,
  getBytes,
  hexlify,
  keccak256,
  recoverAddress,
  Signature,
  SigningKey,
  solidityPackedKeccak256,
  toUtf8Bytes,
  TypedDataEncoder,
  verifyTypedData,
  Wallet,
} from 'ethers';
import { loadConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { address, mintContent } from '../../test/support/mint-content.arbitrary';
import { ccipDigest } from './ccip-digest';
import { MINT_CONTEXT_TYPES, MintContent } from './mint-context';
import { SigningService } from './signing.service';
import { runs } from '../../test/support/property-runs';

const MAINNET_KEY = Wallet.createRandom().privateKey;
const TESTNET_KEY = Wallet.createRandom().privateKey;
const CCIP_KEY = Wallet.createRandom().privateKey;
const HALF_N = BigInt('0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0');
const SEED = 20261123;

/** The production digest of hex or bytes, as hex. */
function ccipAnswerDigest(sender: string, expires: bigint, request: string, result: string): string {
  return hexlify(ccipDigest(sender, expires, getBytes(request), getBytes(result)));
}

function content(over: Partial<MintContent> = {}): MintContent {
  return {
    label: 'alice',
    parentNode: '0x437e3b9bab563acfa6e713f2c6dab6d78deb7bbfd2e9037da34e8d4e5f6e09dd',
    owner: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    price: '5000000000000000',
    fee: '1000000000000000',
    paymentReceiver: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    expiry: 4294967295,
    signatureExpiry: 1795500600,
    verifiedMinter: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    fuses: 65536,
    ...over,
  };
}

/** The metrics every service of this spec counts in. */
const metrics = new Metrics();
const { ccipSignaturesMade, signaturesMade } = metrics;

function service(env: Record<string, string | undefined> = {}): SigningService {
  return new SigningService(
    loadConfig({
      NODE_ENV: 'test',
      // Production needs a database server (the embedded one only with ALLOW_EMBEDDED_DATABASE).
      DATABASE_URL: 'postgres://u@h/db',
      MINT_MAINNET_SIGNER_KEY: MAINNET_KEY,
      MINT_TESTNET_SIGNER_KEY: TESTNET_KEY,
      CCIP_SIGNER_KEY: CCIP_KEY,
      SIGNING_THREAD: 'false',
      ...env,
    }),
    metrics,
  );
}

describe.each([
  ['signing on the event loop', false],
  ['signing on its thread', true],
])(`${SigningService.name}, %s`, (_, thread) => {
  const sut = service({ SIGNING_THREAD: String(thread) });
  afterAll(() => sut.onModuleDestroy());

  it('documents exactly the contract type string', () => {
    const typeString =
      'MintContext(string label,bytes32 parentNode,address owner,uint256 price,uint256 fee,address paymentReceiver,uint256 expiry,uint256 signatureExpiry,address verifiedMinter,uint32 fuses)';
    expect(TypedDataEncoder.from(MINT_CONTEXT_TYPES).encodeType('MintContext')).toBe(typeString);
    expect(keccak256(toUtf8Bytes(typeString))).toBe(
      TypedDataEncoder.from(MINT_CONTEXT_TYPES).encodeData('MintContext', content()).slice(0, 66),
    );
  });

  it('exposes the default domains (docs/operators.md#configuration) and the signer addresses', () => {
    const main = sut.info('mainnet');
    expect(main).toEqual({
      address: new Wallet(MAINNET_KEY).address,
      chainId: 1,
      verifyingContract: '0xCf7625A2fb60B0822444E5964b4Ce80c148e7Fad',
      domain: {
        name: 'namespace',
        version: '1',
        chainId: 1,
        verifyingContract: '0xCf7625A2fb60B0822444E5964b4Ce80c148e7Fad',
      },
      types: MINT_CONTEXT_TYPES,
      primaryType: 'MintContext',
    });
    expect(sut.info('testnet')).toMatchObject({
      address: new Wallet(TESTNET_KEY).address,
      chainId: 11155111,
      verifyingContract: '0x313442ba3A0b12193787BD162f99Ed3C415F2886',
    });
    expect(JSON.stringify([main, sut.info('testnet')])).not.toContain(MAINNET_KEY.slice(2));
  });

  it.each(['mainnet', 'testnet'] as const)('%s digest equals TypedDataEncoder.hash of the documented types', (n) => {
    const { domain } = sut.info(n);
    for (const c of [content(), content({ label: '🙂', price: '0', fee: '0', fuses: 0 }), content({ expiry: 1 })]) {
      expect(sut.digest(n, c)).toBe(TypedDataEncoder.hash(domain, MINT_CONTEXT_TYPES, c));
    }
  });

  it.each(['mainnet', 'testnet'] as const)(
    '%s digest and signature equal ethers (TypedDataEncoder.hash, Wallet.signTypedData, SigningKey.sign) over 300 generated contents',
    async (n) => {
      const { domain } = sut.info(n);
      const wallet = new Wallet(n === 'mainnet' ? MAINNET_KEY : TESTNET_KEY);
      await fc.assert(
        fc.asyncProperty(mintContent, async (c) => {
          const digest = TypedDataEncoder.hash(domain, MINT_CONTEXT_TYPES, c);
          expect(sut.digest(n, c)).toBe(digest);
          const signature = await sut.sign(n, c);
          expect(signature).toBe(wallet.signingKey.sign(digest).serialized);
          expect(signature).toBe(await wallet.signTypedData(domain, MINT_CONTEXT_TYPES, c));
        }),
        { seed: SEED, numRuns: runs(300) },
      );
    },
  );

  it('refuses contents ethers refuses: an address or node of the wrong length, an empty or negative amount, an unsafe number', async () => {
    const { domain } = sut.info('mainnet');
    const refused: Partial<MintContent>[] = [
      { owner: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA' },
      { parentNode: '0x437e3b9bab563acfa6e713f2c6dab6d78deb7bbfd2e9037da34e8d4e5f6e09' },
      { price: '' },
      { fee: '-1' },
      { fuses: 2 ** 32 },
      { expiry: 2 ** 60 },
    ];
    for (const change of refused) {
      expect(() => TypedDataEncoder.hash(domain, MINT_CONTEXT_TYPES, content(change))).toThrow();
      expect(() => sut.digest('mainnet', content(change))).toThrow();
      await expect(sut.sign('mainnet', content(change))).rejects.toThrow();
    }
  });

  it('signs 65-byte low-s signatures that verifyTypedData recovers to the network signer', async () => {
    for (const n of ['mainnet', 'testnet'] as const) {
      const { domain, address } = sut.info(n);
      for (let i = 0; i < 20; i++) {
        const c = content({ label: `label${i}`, signatureExpiry: 1795500600 + i });
        const signature = await sut.sign(n, c);
        expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
        expect(BigInt(Signature.from(signature).s) <= HALF_N).toBe(true);
        expect([27, 28]).toContain(Signature.from(signature).v);
        expect(verifyTypedData(domain, MINT_CONTEXT_TYPES, c, signature)).toBe(address);
      }
    }
  });

  it('holds the keys where neither JSON nor inspection reaches them, as hex or as bytes', () => {
    const shown = [
      JSON.stringify(sut),
      inspect(sut, { depth: Infinity, breakLength: Infinity, maxArrayLength: Infinity }),
      inspect(sut, { depth: Infinity, breakLength: Infinity, maxArrayLength: Infinity, showHidden: true }),
    ].join('\n');
    for (const key of [MAINNET_KEY, TESTNET_KEY, CCIP_KEY]) {
      expect(shown).not.toContain(key.slice(2));
      expect(shown).not.toContain(Array.from(getBytes(key)).join(', '));
    }
  });

  it('signs for its own domain only: a mainnet signature does not recover to anyone on the testnet domain', async () => {
    const signature = await sut.sign('mainnet', content());
    const testnet = sut.info('testnet').domain;
    const recovered = verifyTypedData(testnet, MINT_CONTEXT_TYPES, content(), signature);
    expect(recovered).not.toBe(sut.info('mainnet').address);
    expect(recovered).not.toBe(sut.info('testnet').address);
  });

  it('changes the digest when any single field changes', () => {
    const base = sut.digest('mainnet', content());
    const changes: Partial<MintContent>[] = [
      { label: 'alicf' },
      { parentNode: `0x${'00'.repeat(32)}` },
      { owner: '0x0000000000000000000000000000000000000001' },
      { price: '5000000000000001' },
      { fee: '1000000000000001' },
      { paymentReceiver: '0x0000000000000000000000000000000000000001' },
      { expiry: 4294967294 },
      { signatureExpiry: 1795500601 },
      { verifiedMinter: '0x0000000000000000000000000000000000000001' },
      { fuses: 65537 },
    ];
    for (const change of changes) expect(sut.digest('mainnet', content(change))).not.toBe(base);
  });

  it('counts each signature by network', async () => {
    const count = async (n: string) =>
      (await signaturesMade.get()).values.find((v) => v.labels.network === n)?.value ?? 0;
    const [testnet, mainnet] = [await count('testnet'), await count('mainnet')];
    await sut.sign('testnet', content());
    expect(await count('testnet')).toBe(testnet + 1);
    expect(await count('mainnet')).toBe(mainnet);
  });

  describe('CCIP-Read gateway answers', () => {
    const sender = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
    const request = concat([
      '0x9061b923',
      AbiCoder.defaultAbiCoder().encode(['bytes', 'bytes'], ['0x05616c696365', '0x']),
    ]);
    const result = AbiCoder.defaultAbiCoder().encode(['address'], ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed']);
    const expires = 1795500900n;

    it('digests 0x1900 ‖ sender ‖ uint64 expires ‖ keccak256(request) ‖ keccak256(result), byte for byte', () => {
      // Built by hand: 2 + 20 + 8 + 32 + 32 = 94 bytes, the sender in any letter case.
      const preimage =
        '0x1900' +
        sender.slice(2).toLowerCase() +
        expires.toString(16).padStart(16, '0') +
        keccak256(request).slice(2) +
        keccak256(result).slice(2);
      expect((preimage.length - 2) / 2).toBe(94);
      expect(ccipAnswerDigest(sender, expires, request, result)).toBe(keccak256(preimage));
      expect(ccipAnswerDigest(sender.toLowerCase(), expires, request, result)).toBe(keccak256(preimage));
      expect(ccipAnswerDigest(sender, expires + 1n, request, result)).not.toBe(keccak256(preimage));
      expect(ccipAnswerDigest(sender, expires, request, `${result}00`)).not.toBe(keccak256(preimage));
    });

    it('signs raw (no EIP-191 prefix), 65 bytes, low s, recovering to the configured gateway signer', async () => {
      expect(sut.ccipAddress).toBe(new Wallet(CCIP_KEY).address);
      const before = (await ccipSignaturesMade.get()).values[0]?.value ?? 0;
      for (let i = 0; i < 20; i++) {
        const signature = await sut.signCcipAnswer(sender, expires + BigInt(i), request, result);
        expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
        expect(BigInt(Signature.from(signature).s) <= HALF_N).toBe(true);
        expect(recoverAddress(ccipAnswerDigest(sender, expires + BigInt(i), request, result), signature)).toBe(
          sut.ccipAddress,
        );
      }
      expect((await ccipSignaturesMade.get()).values[0].value).toBe(before + 20);
    });

    it(`digests and signs as solidityPackedKeccak256 and ethers SigningKey.sign, over ${runs(1000)} generated answers`, async () => {
      const key = new SigningKey(CCIP_KEY);
      const data = fc.uint8Array({ maxLength: 300 }).map((b) => hexlify(b));
      const uint64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
      await fc.assert(
        fc.asyncProperty(address, uint64, data, data, async (to, exp, req, res) => {
          const digest = solidityPackedKeccak256(
            ['bytes2', 'address', 'uint64', 'bytes32', 'bytes32'],
            ['0x1900', to, exp, keccak256(req), keccak256(res)],
          );
          expect(ccipAnswerDigest(to, exp, req, res)).toBe(digest);
          expect(ccipAnswerDigest(to.toLowerCase(), exp, req, res)).toBe(digest);
          expect(await sut.signCcipAnswer(to, exp, req, res)).toBe(key.sign(digest).serialized);
        }),
        { seed: SEED, numRuns: runs(1000) },
      );
    });

    it('refuses a sender that is not 20 bytes and an expiry that is not a uint64', () => {
      expect(() => ccipAnswerDigest(sender.slice(0, 40), expires, request, result)).toThrow('not an address');
      expect(() => ccipAnswerDigest(sender, 1n << 64n, request, result)).toThrow('uint64');
      expect(() => ccipAnswerDigest(sender, -1n, request, result)).toThrow('uint64');
    });

    it('uses its own key, not a mint key', () => {
      expect([sut.info('mainnet').address, sut.info('testnet').address]).not.toContain(sut.ccipAddress);
    });
  });
});

describe(`${SigningService.name} keys`, () => {
  describe('development keys', () => {
    beforeEach(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
    afterEach(() => jest.restoreAllMocks());

    it('makes one key per network in DATA_DIR (mode 0600), logs the address, and reuses it', () => {
      const dir = mkdtempSync(join(tmpdir(), 'signer-'));
      const first = service({ MINT_MAINNET_SIGNER_KEY: undefined, MINT_TESTNET_SIGNER_KEY: undefined, DATA_DIR: dir });
      const file = join(dir, 'dev-signer-mainnet.key');
      const key = readFileSync(file, 'utf8').trim();
      expect(key).toMatch(/^0x[0-9a-f]{64}$/);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(first.info('mainnet').address).toBe(new Wallet(key).address);
      expect(first.info('testnet').address).not.toBe(first.info('mainnet').address);
      const logged = (Logger.prototype.warn as jest.Mock).mock.calls.map((c) => String(c[0]));
      expect(logged[0]).toMatch(new RegExp(`^generated development signer ${first.info('mainnet').address}`));
      expect(logged.join('\n')).not.toContain(key.slice(2));

      const second = service({ MINT_MAINNET_SIGNER_KEY: undefined, MINT_TESTNET_SIGNER_KEY: undefined, DATA_DIR: dir });
      expect(second.info('mainnet').address).toBe(first.info('mainnet').address);
      expect(second.info('testnet').address).toBe(first.info('testnet').address);
    });

    it('makes the gateway key the same way, in its own file, and logs only its address', () => {
      const dir = mkdtempSync(join(tmpdir(), 'signer-'));
      const first = service({ CCIP_SIGNER_KEY: undefined, DATA_DIR: dir });
      const file = join(dir, 'dev-signer-ccip.key');
      const key = readFileSync(file, 'utf8').trim();
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(first.ccipAddress).toBe(new Wallet(key).address);
      expect(first.ccipAddress).not.toBe(first.info('mainnet').address);
      const logged = (Logger.prototype.warn as jest.Mock).mock.calls.map((c) => String(c[0]));
      expect(logged).toEqual([
        `generated development signer ${first.ccipAddress} for the CCIP-Read gateway in ${file}; set CCIP_SIGNER_KEY outside development`,
      ]);
      expect(logged.join('\n')).not.toContain(key.slice(2));
      expect(service({ CCIP_SIGNER_KEY: undefined, DATA_DIR: dir }).ccipAddress).toBe(first.ccipAddress);
    });

    it('uses a configured key rather than a development one', () => {
      const dir = mkdtempSync(join(tmpdir(), 'signer-'));
      const sut2 = service({ MINT_TESTNET_SIGNER_KEY: undefined, DATA_DIR: dir });
      expect(sut2.info('mainnet').address).toBe(new Wallet(MAINNET_KEY).address);
      expect(() => readFileSync(join(dir, 'dev-signer-mainnet.key'))).toThrow();
      expect(readFileSync(join(dir, 'dev-signer-testnet.key'), 'utf8')).toMatch(/^0x/);
    });

    it('refuses a damaged key file with a message naming it and the variable', () => {
      const dir = mkdtempSync(join(tmpdir(), 'signer-'));
      writeFileSync(join(dir, 'dev-signer-mainnet.key'), 'nonsense');
      expect(() => service({ MINT_MAINNET_SIGNER_KEY: undefined, DATA_DIR: dir })).toThrow(
        /dev-signer-mainnet\.key .*MINT_MAINNET_SIGNER_KEY/,
      );
    });

    it('refuses to start in production without a key, naming the variable', () => {
      expect(() => service({ NODE_ENV: 'production', MINT_TESTNET_SIGNER_KEY: undefined })).toThrow(
        /MINT_TESTNET_SIGNER_KEY is not set: with NODE_ENV=production/,
      );
      expect(() =>
        service({ NODE_ENV: 'production', MINT_MAINNET_SIGNER_KEY: undefined, MINT_TESTNET_SIGNER_KEY: undefined }),
      ).toThrow(/MINT_MAINNET_SIGNER_KEY/);
      expect(service({ NODE_ENV: 'production' }).info('mainnet').address).toBe(new Wallet(MAINNET_KEY).address);
      expect(() => service({ NODE_ENV: 'production', CCIP_SIGNER_KEY: undefined })).toThrow(
        'CCIP_SIGNER_KEY is not set: with NODE_ENV=production the CCIP-Read gateway signer key is required',
      );
    });

    it('refuses a configured value that is not a secp256k1 key', () => {
      expect(() => service({ MINT_MAINNET_SIGNER_KEY: `0x${'00'.repeat(32)}` })).toThrow(
        'MINT_MAINNET_SIGNER_KEY is not a valid secp256k1 private key',
      );
      expect(() => service({ CCIP_SIGNER_KEY: `0x${'ff'.repeat(32)}` })).toThrow(
        'CCIP_SIGNER_KEY is not a valid secp256k1 private key',
      );
    });
  });
});
