import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createMintClient } from '@thenamespace/mint-manager';
import {
  AbiCoder,
  concat,
  getAddress,
  Interface,
  InterfaceAbi,
  namehash,
  Signature,
  TypedDataEncoder,
  Wallet,
} from 'ethers';
import request from 'supertest';
import { compileContract } from './contracts/compile';
import type { MintContent } from '../src/signing/mint-context';
import { CallResult, Evm } from '../src/dev-chain/evm';
import { ADMIN_TOKEN, createTestApp, expectSignedOnTheThread, TestApp } from './support/test-app';

const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
const RECEIVER = '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB';
const mainnetSigner = Wallet.createRandom();
const testnetSigner = Wallet.createRandom();
const deployer = Wallet.createRandom().address;
const minter = Wallet.createRandom().address;
const stranger = Wallet.createRandom().address;

/**
 * The service's signatures checked by Solidity: MintVerifier (test/contracts) verifies MintContext with
 * OpenZeppelin EIP712 and ECDSA as the Namespace MintController does. It is compiled with solc-js here and
 * deployed at one address on three in-memory chains: chain id 1 and 11155111 (both service signers registered)
 * and a second chain id 1 where neither is. The service signs for that address on both networks.
 */
describe('on chain: mint signatures pass a Solidity MintContext verifier in an EVM', () => {
  let evm: Evm;
  let t: TestApp;
  let verifier: Interface;
  let address: string;
  const chains = { mainnet: 0, testnet: 0, unregistered: 0 };

  beforeAll(async () => {
    const compiled = compileContract('MintVerifier.sol', 'MintVerifier');
    verifier = new Interface(compiled.abi as string[]);
    evm = Evm.start();
    chains.mainnet = await evm.chain(1);
    chains.testnet = await evm.chain(11155111);
    chains.unregistered = await evm.chain(1);
    const deploy = (chain: number, verifiers: string[]) =>
      evm.deploy(
        chain,
        deployer,
        concat([compiled.bytecode, AbiCoder.defaultAbiCoder().encode(['address[]'], [verifiers])]),
      );
    address = getAddress(await deploy(chains.mainnet, [mainnetSigner.address, testnetSigner.address]));
    expect(getAddress(await deploy(chains.testnet, [mainnetSigner.address, testnetSigner.address]))).toBe(address);
    expect(getAddress(await deploy(chains.unregistered, [Wallet.createRandom().address]))).toBe(address);

    t = await createTestApp({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'mint-onchain-')),
      MINT_MAINNET_SIGNER_KEY: mainnetSigner.privateKey,
      MINT_TESTNET_SIGNER_KEY: testnetSigner.privateKey,
      MINT_MAINNET_CONTRACT: address,
      MINT_TESTNET_CONTRACT: address,
    });
    for (const network of ['mainnet', 'testnet']) {
      await request(t.http)
        .put(`/api/v1/admin/listings/${network}/oak.eth`)
        .set('x-admin-token', ADMIN_TOKEN)
        .send({
          price: '3000000000000000',
          lengthPrices: { '1': '90000000000000000' },
          fee: '500000000000000',
          paymentReceiver: RECEIVER,
          expirable: true,
          fuses: 65536,
        })
        .expect(200);
    }
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await evm?.stop();
  });

  const params = async (body: Record<string, unknown> = {}) => {
    const res = await request(t.http)
      .post('/api/v1/mint')
      .send({ label: 'alice', parentName: 'oak.eth', minterAddress: minter, ...body })
      .expect(200);
    return res.body as { content: MintContent; signature: string };
  };
  const total = (c: MintContent) => BigInt(c.price) + BigInt(c.fee);
  /** Sends mint(ctx, sig, [], 0x) as a transaction; by default from the verified minter, now, paying price + fee. */
  const submit = (
    chain: number,
    content: MintContent,
    signature: string,
    tx: { from?: string; timestamp?: number; value?: bigint } = {},
  ): Promise<CallResult> =>
    evm.call(chain, {
      from: tx.from ?? content.verifiedMinter,
      to: address,
      data: verifier.encodeFunctionData('mint', [content, signature, [], '0x']),
      value: tx.value ?? total(content),
      timestamp: tx.timestamp ?? Math.floor(Date.now() / 1000),
    });
  const errorOf = (r: CallResult) => (r.success ? 'none' : (verifier.parseError(r.returnData)?.name ?? r.returnData));

  it('accepts a fresh mainnet signature, recovering the mainnet signer', async () => {
    const { content, signature } = await params({ expiryInYears: 2 });
    const r = await submit(chains.mainnet, content, signature);
    expect(errorOf(r)).toBe('none');
    const event = verifier.parseLog(r.logs[0])!;
    expect(event.name).toBe('MintVerified');
    expect(event.args.signer).toBe(mainnetSigner.address);
    expect(event.args.label).toBe('alice');
    expect(event.args.parentNode).toBe(namehash('oak.eth'));
    expect(event.args.paid).toBe(6_000_000_000_000_000n + 1_000_000_000_000_000n);
  });

  it('computes on chain the same digest as ethers TypedDataEncoder over the advertised domain', async () => {
    const { content } = await params({ label: '🙂', owner: stranger });
    const signer = (await request(t.http).get('/api/v1/mint/signer').expect(200)).body;
    const call = await evm.call(chains.mainnet, {
      from: minter,
      to: address,
      data: verifier.encodeFunctionData('digest', [content]),
      timestamp: Math.floor(Date.now() / 1000),
    });
    const [onChain] = verifier.decodeFunctionResult('digest', call.returnData);
    expect(onChain).toBe(TypedDataEncoder.hash(signer.domain, signer.types, content));
  });

  it('refuses the signature when any single content field is changed', async () => {
    const { content, signature } = await params();
    const other = Wallet.createRandom().address;
    const changes: Partial<MintContent>[] = [
      { label: 'alicf' },
      { parentNode: namehash('pine.eth') },
      { owner: other },
      { price: (BigInt(content.price) + 1n).toString() },
      { fee: (BigInt(content.fee) - 1n).toString() },
      { paymentReceiver: other },
      { expiry: content.expiry + 1 },
      { signatureExpiry: content.signatureExpiry + 1 },
      { verifiedMinter: other },
      { fuses: 65537 },
    ];
    expect(changes.map((c) => Object.keys(c)[0]).sort()).toEqual(Object.keys(content).sort());
    for (const change of changes) {
      // sent by the (changed) verified minter with enough value: only the signature check can fail
      const r = await submit(chains.mainnet, { ...content, ...change }, signature);
      expect([Object.keys(change)[0], errorOf(r)]).toEqual([Object.keys(change)[0], 'NotVerifier']);
    }
    expect(errorOf(await submit(chains.mainnet, content, signature))).toBe('none');
  });

  it('refuses a call from another address than verifiedMinter', async () => {
    const { content, signature } = await params();
    expect(errorOf(await submit(chains.mainnet, content, signature, { from: stranger }))).toBe('NotVerifiedMinter');
  });

  it('refuses a signature on the other network’s chain id, and accepts each network on its own', async () => {
    const main = await params();
    expect(errorOf(await submit(chains.testnet, main.content, main.signature))).toBe('NotVerifier');
    const test = await params({ isTestnet: true, label: 'bob' });
    expect(errorOf(await submit(chains.testnet, test.content, test.signature))).toBe('none');
    expect(errorOf(await submit(chains.mainnet, test.content, test.signature))).toBe('NotVerifier');
  });

  it('refuses the signature once block.timestamp reaches signatureExpiry', async () => {
    const { content, signature } = await params();
    const last = content.signatureExpiry - 1;
    expect(errorOf(await submit(chains.mainnet, content, signature, { timestamp: last }))).toBe('none');
    for (const timestamp of [content.signatureExpiry, content.signatureExpiry + 3600]) {
      expect(errorOf(await submit(chains.mainnet, content, signature, { timestamp }))).toBe('SignatureExpired');
    }
  });

  it('refuses a signer that is not a registered verifier', async () => {
    const { content, signature } = await params();
    expect(errorOf(await submit(chains.unregistered, content, signature))).toBe('NotVerifier');
  });

  it('refuses the high-s twin of a valid signature (why the service signs low-s)', async () => {
    const { content, signature } = await params();
    const sig = Signature.from(signature);
    const highS = concat([
      sig.r,
      `0x${(N - BigInt(sig.s)).toString(16).padStart(64, '0')}`,
      sig.v === 27 ? '0x1c' : '0x1b',
    ]);
    const r = await submit(chains.mainnet, content, highS);
    expect(r.success).toBe(false);
    expect(r.returnData.slice(0, 10)).toBe(
      new Interface(['error ECDSAInvalidSignatureS(bytes32)']).getError('ECDSAInvalidSignatureS')!.selector,
    );
  });

  it('charges what the content says: price + fee, by label length and years', async () => {
    const { content, signature } = await params({ label: 'x', expiryInYears: 3 });
    expect(content.price).toBe('270000000000000000');
    expect(content.fee).toBe('1500000000000000');
    const short = await submit(chains.mainnet, content, signature, { value: total(content) - 1n });
    expect(errorOf(short)).toBe('InsufficientValue');
    expect(errorOf(await submit(chains.mainnet, content, signature))).toBe('none');
  });

  it('accepts the transaction the public mint SDK builds from the service (same mint ABI as the L1 MintController)', async () => {
    const server = await t.app.listen(0, '127.0.0.1');
    const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    jest.spyOn(console, 'info').mockImplementation(() => undefined);
    for (const isTestnet of [false, true]) {
      const sdk = createMintClient({ isTestnet, mintManagerUri: uri, listManagerUri: uri });
      const tx = await sdk.getMintTransactionParameters({
        parentName: 'oak.eth',
        label: isTestnet ? 'sdk-test' : 'sdk-main',
        minterAddress: minter as `0x${string}`,
        expiryInYears: 2,
      });
      expect(tx.functionName).toBe('mint');
      const controller = new Interface(tx.abi as InterfaceAbi);
      expect(controller.getFunction('mint')!.selector).toBe(verifier.getFunction('mint')!.selector);
      const data = controller.encodeFunctionData('mint', tx.args);
      const r = await evm.call(isTestnet ? chains.testnet : chains.mainnet, {
        from: minter,
        to: address,
        data,
        value: tx.value,
        timestamp: Math.floor(Date.now() / 1000),
      });
      expect(errorOf(r)).toBe('none');
      expect(verifier.parseLog(r.logs[0])!.args.signer).toBe(isTestnet ? testnetSigner.address : mainnetSigner.address);
    }
  });

  it('signed on the signing thread, as production signs: signing_thread_up 1 after its signatures', async () => {
    await expectSignedOnTheThread(t);
  });
});
