import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getL1NamespaceContracts } from '@thenamespace/addresses';
import { createMintClient, MintClient } from '@thenamespace/mint-manager';
import { hexlify, toUtf8Bytes, verifyTypedData, Wallet } from 'ethers';
import request from 'supertest';
import { startServiceProcess, ServiceProcess } from './support/service-process';
import { logChild } from './support/suite-log';
import { ADMIN_TOKEN, createTestApp, testEnv } from './support/test-app';

const MINTER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const OWNER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const RECEIVER = '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB';
/** The L1 MintController addresses that the installed SDK (@thenamespace/addresses) sends mints to. */
const SDK_MAINNET_CONTROLLER = getL1NamespaceContracts(false).mintController;
const SDK_SEPOLIA_CONTROLLER = getL1NamespaceContracts(true).mintController;

const mainnetSigner = Wallet.createRandom();
const testnetSigner = Wallet.createRandom();

/** @thenamespace/mint-manager, the public mint SDK, pointed at a running service process. */
describe('the public mint SDK against the running service', () => {
  let svc: ServiceProcess;
  let mainnet: MintClient;
  let testnet: MintClient;

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${svc.url}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { content?: never } };
  };

  beforeAll(async () => {
    // The in-process app resets the database and seeds a subname; the service process then shares it.
    const t = await createTestApp({ DATA_DIR: mkdtempSync(join(tmpdir(), 'mint-sdk-')) });
    const { key } = await t.issueKey(['oak.eth']);
    await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'oak.eth', label: 'taken' })
      .expect(201);
    await t.close();

    svc = await startServiceProcess({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'mint-sdk-')),
      MINT_MAINNET_SIGNER_KEY: mainnetSigner.privateKey,
      MINT_TESTNET_SIGNER_KEY: testnetSigner.privateKey,
      // The SDK takes the contract address from its own table; the service must sign for the same ones.
      MINT_MAINNET_CONTRACT: SDK_MAINNET_CONTROLLER,
      MINT_TESTNET_CONTRACT: SDK_SEPOLIA_CONTROLLER,
      LOG_LEVEL: 'debug',
    });
    const listing = { fee: '1000000000000000', paymentReceiver: RECEIVER, fuses: 65536, reservedLabels: ['admin'] };
    expect(
      (
        await call('PUT', '/admin/listings/mainnet/oak.eth', {
          ...listing,
          price: '5000000000000000',
          expirable: false,
        })
      ).status,
    ).toBe(200);
    expect(
      (await call('PUT', '/admin/listings/testnet/oak.eth', { ...listing, price: '2000000000000000', expirable: true }))
        .status,
    ).toBe(200);

    jest.spyOn(console, 'info').mockImplementation(() => undefined); // the SDK announces its URIs
    mainnet = createMintClient({ mintManagerUri: svc.url, listManagerUri: svc.url });
    testnet = createMintClient({ isTestnet: true, mintManagerUri: svc.url, listManagerUri: svc.url });
  }, 120_000);

  afterAll(async () => {
    await svc?.stop();
  });

  const estimate = async (query: Record<string, string>) =>
    (await call('GET', `/mint/estimate?${new URLSearchParams(query).toString()}`)).body;

  describe('getMintDetails (GET /minting-parameters/estimated)', () => {
    it.each([
      ['a mintable label', { label: 'alice', parentName: 'oak.eth' }],
      ['a reserved label', { label: 'Admin', parentName: 'oak.eth' }],
      ['a taken label', { label: 'taken', parentName: 'oak.eth' }],
      ['a parent without a listing', { label: 'alice', parentName: 'pine.eth' }],
    ])('matches the service’s own estimate for %s', async (_, req) => {
      const details = await mainnet.getMintDetails({ ...req, minterAddress: MINTER });
      expect(details).toEqual(await estimate({ ...req, minterAddress: MINTER }));
    });

    it('prices testnet years the same way the service does', async () => {
      const details = await testnet.getMintDetails({
        label: 'alice',
        parentName: 'oak.eth',
        minterAddress: MINTER,
        expiryInYears: 3,
        isTestnet: true,
      });
      expect(details).toMatchObject({
        canMint: true,
        estimatedPriceEth: 0.006,
        estimatedFeeEth: 0.003,
        validationErrors: [],
      });
      expect(details).toEqual(
        await estimate({
          label: 'alice',
          parentName: 'oak.eth',
          minterAddress: MINTER,
          expiryInYears: '3',
          isTestnet: 'true',
        }),
      );
    });
  });

  describe('getMintTransactionParameters (listing lookup, then POST /minting-parameters)', () => {
    it.each([
      ['mainnet', false, SDK_MAINNET_CONTROLLER],
      ['testnet', true, SDK_SEPOLIA_CONTROLLER],
    ] as const)('%s: the transaction carries the service’s signed content', async (_, isTestnet, controller) => {
      const sdk = isTestnet ? testnet : mainnet;
      const before = Math.floor(Date.now() / 1000);
      const tx = await sdk.getMintTransactionParameters({
        parentName: 'oak.eth',
        label: 'Carol',
        minterAddress: MINTER,
        owner: OWNER,
        expiryInYears: 2,
      });
      const after = Math.floor(Date.now() / 1000);
      const own = await call('POST', '/minting-parameters', {
        parentName: 'oak.eth',
        label: 'Carol',
        minterAddress: MINTER,
        owner: OWNER,
        expiryInYears: 2,
        isTestnet,
      });
      expect(own.status).toBe(200);
      const [content, signature, resolverData, extraData] = tx.args as [
        Record<string, unknown>,
        string,
        unknown[],
        string,
      ];
      const ownContent = own.body.content as unknown as Record<string, number | string>;
      const { signatureExpiry, expiry, ...rest } = content as Record<string, number>;
      const { signatureExpiry: ownSigExpiry, expiry: ownExpiry, ...ownRest } = ownContent;
      expect(rest).toEqual(ownRest);
      expect(rest).toMatchObject({ label: 'carol', owner: OWNER, verifiedMinter: MINTER, paymentReceiver: RECEIVER });
      expect(signatureExpiry).toBeGreaterThanOrEqual(before + 600);
      expect(signatureExpiry).toBeLessThanOrEqual(after + 600);
      // Each answer is consistent in itself (the two calls may straddle a second, and mainnet's expiry is fixed).
      expect(ownExpiry).toBe(isTestnet ? (ownSigExpiry as number) - 600 + 2 * 365 * 86400 : 4294967295);
      expect(expiry).toBe(isTestnet ? signatureExpiry - 600 + 2 * 365 * 86400 : 4294967295);

      const signer = (await call('GET', `/mint/signer?isTestnet=${isTestnet}`)).body as {
        address: string;
        verifyingContract: string;
        domain: Record<string, unknown>;
        types: Record<string, { name: string; type: string }[]>;
      };
      expect(verifyTypedData(signer.domain, signer.types, content, signature)).toBe(
        isTestnet ? testnetSigner.address : mainnetSigner.address,
      );
      expect(tx.contractAddress).toBe(controller);
      expect(signer.verifyingContract).toBe(controller);
      expect(tx.value).toBe(BigInt(content.price as string) + BigInt(content.fee as string));
      // testnet: (0.002 + 0.001) ETH a year for 2 years; mainnet: 0.005 + 0.001 ETH once
      expect(tx.value).toBe(6_000_000_000_000_000n);
      expect(tx).toMatchObject({ functionName: 'mint', account: MINTER });
      expect(resolverData).toEqual([]);
      expect(extraData).toBe(hexlify(toUtf8Bytes('namespace-sdk')));
    });

    it('fails as the service refuses: no listing (404 lookup), reserved and taken (409)', async () => {
      const req = { minterAddress: MINTER as `0x${string}`, parentName: 'oak.eth' };
      await expect(
        mainnet.getMintTransactionParameters({ ...req, parentName: 'pine.eth', label: 'x' }),
      ).rejects.toMatchObject({
        response: { status: 404, data: { code: 'LISTING_NOT_FOUND' } },
      });
      await expect(mainnet.getMintTransactionParameters({ ...req, label: 'admin' })).rejects.toMatchObject({
        response: { status: 409, data: { code: 'SUBNAME_RESERVED' } },
      });
      await expect(mainnet.getMintTransactionParameters({ ...req, label: 'taken' })).rejects.toMatchObject({
        response: { status: 409, data: { code: 'SUBNAME_TAKEN' } },
      });
    });
  });

  // Declared last: it reads the whole log of the calls above.
  it('never wrote a signer key to its log', () => {
    const out = svc.output();
    expect(out).not.toContain(mainnetSigner.privateKey.slice(2));
    expect(out).not.toContain(testnetSigner.privateKey.slice(2));
  });
});

describe('signer keys at start-up (service process)', () => {
  it('outside production without keys: makes development keys in DATA_DIR, logs their addresses only', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mint-devkey-'));
    const svc = await startServiceProcess({ NODE_ENV: 'development', DATA_DIR: dataDir });
    try {
      const signer = (await (await fetch(`${svc.url}/api/v1/mint/signer`)).json()) as { address: string };
      const file = join(dataDir, 'dev-signer-mainnet.key');
      const key = readFileSync(file, 'utf8').trim();
      expect(new Wallet(key).address).toBe(signer.address);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const logged = `generated development signer ${signer.address}`;
      expect(await svc.outputContaining(logged)).toContain(logged);
      expect(svc.output()).not.toContain(key.slice(2));
      expect(readFileSync(join(dataDir, 'dev-signer-testnet.key'), 'utf8')).toMatch(/^0x[0-9a-f]{64}\n$/);
    } finally {
      await svc.stop();
    }
  });

  it('in production without a key: refuses to start, naming the variable', async () => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({
      ...process.env,
      ...testEnv({ NODE_ENV: 'production', PORT: '0', DATA_DIR: mkdtempSync(join(tmpdir(), 'mint-prod-')) }),
    })) {
      if (v !== undefined && !k.startsWith('MINT_')) env[k] = v;
    }
    env.MINT_TESTNET_SIGNER_KEY = testnetSigner.privateKey;
    const child = logChild(
      'service',
      spawn(process.execPath, [join(__dirname, '..', 'dist', 'main.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('exit', (c, s) => resolve([c, s])),
    );
    expect(code === 0).toBe(false);
    expect(code !== null || signal !== null).toBe(true);
    expect(out).toContain('MINT_MAINNET_SIGNER_KEY is not set: with NODE_ENV=production');
    expect(out).not.toContain(testnetSigner.privateKey.slice(2));
  });
});
