import { AbiCoder, dnsEncode, Interface, namehash, recoverAddress, Wallet, ZeroAddress } from 'ethers';
import { DomainError } from '../common/errors';
import { loadConfig } from '../config/app-config';
import { ccipAnswerDigest } from '../../test/support/ccip-reference';
import { SigningService } from '../signing/signing.service';
import type { SubnameRecords, SubnamesService } from '../subnames/subnames.service';
import type { PrimaryNamesService } from '../primary-names/primary-names.service';
import { ResolutionService } from './resolution.service';

const iface = new Interface([
  'function resolve(bytes name, bytes data)',
  'function addr(bytes32 node)',
  'function name(bytes32 node)',
  'function pubkey(bytes32 node)',
  'function multicall(bytes[] data)',
]);
const SENDER = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const call = (name: string, fn = 'addr') =>
  iface.encodeFunctionData('resolve', [dnsEncode(name), iface.encodeFunctionData(fn, [namehash(name)])]);

describe(ResolutionService.name, () => {
  const gateway = Wallet.createRandom();
  let stored: Record<string, SubnameRecords>;
  const subnames = { records: jest.fn(async (name: string) => stored[name] ?? null) };
  const HOLDER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  const REVERSE = `${HOLDER.slice(2).toLowerCase()}.addr.reverse`;
  const primaryNames = {
    reverseLookup: jest.fn(async (name: string) =>
      name === REVERSE ? { answer: 'alice.oak.eth', chosen: 'alice.oak.eth' } : { answer: '', chosen: null },
    ),
  };

  function service(ttlSeconds: number, env: Record<string, string> = {}): ResolutionService {
    const config = loadConfig({
      NODE_ENV: 'test',
      ...env,
      MINT_MAINNET_SIGNER_KEY: Wallet.createRandom().privateKey,
      MINT_TESTNET_SIGNER_KEY: Wallet.createRandom().privateKey,
      CCIP_SIGNER_KEY: gateway.privateKey,
      CCIP_SIGNATURE_TTL_SECONDS: String(ttlSeconds),
    });
    return new ResolutionService(
      subnames as unknown as SubnamesService,
      new SigningService(config),
      primaryNames as unknown as PrimaryNamesService,
      config,
    );
  }

  beforeEach(() => {
    stored = {
      'alice.oak.eth': { texts: {}, addresses: { '60': ETH }, contenthash: null, ttl: 120 },
      'zero.oak.eth': { texts: {}, addresses: {}, contenthash: null, ttl: 0 },
      'long.oak.eth': { texts: {}, addresses: {}, contenthash: null, ttl: 4294967295 },
      'plain.oak.eth': { texts: {}, addresses: {}, contenthash: null, ttl: null },
    };
  });

  it('signs the answer for the sender (any letter case) with an expiry of now + the lifetime, aligned', async () => {
    const sut = service(300);
    const data = call('alice.oak.eth');
    const before = Math.floor(Date.now() / 1000);
    const answer = await sut.resolve(SENDER.toLowerCase(), data);
    const [result, expires, signature] = AbiCoder.defaultAbiCoder().decode(['bytes', 'uint64', 'bytes'], answer.data);
    expect(AbiCoder.defaultAbiCoder().decode(['address'], result)[0]).toBe(ETH);
    // Aligned to windows of 60 s (a fifth of 300): the start of now's window + 300.
    expect(Number(expires) % 60).toBe(0);
    expect(Number(expires) - before).toBeGreaterThan(240);
    expect(Number(expires) - before).toBeLessThanOrEqual(300);
    expect(recoverAddress(ccipAnswerDigest(SENDER, expires, data, result), signature)).toBe(gateway.address);
    expect(subnames.records).toHaveBeenCalledWith('alice.oak.eth');
  });

  it('max-age: the ttl, else 60, never more than half the signature lifetime', async () => {
    const maxAge = async (sut: ResolutionService, name: string) =>
      (await sut.resolve(SENDER, call(name))).maxAgeSeconds;
    const five = service(300);
    expect(await maxAge(five, 'alice.oak.eth')).toBe(120);
    expect(await maxAge(five, 'zero.oak.eth')).toBe(0);
    expect(await maxAge(five, 'long.oak.eth')).toBe(150);
    expect(await maxAge(five, 'plain.oak.eth')).toBe(60);
    expect(await maxAge(five, 'nobody.oak.eth')).toBe(60);
    const short = service(11);
    expect(await maxAge(short, 'alice.oak.eth')).toBe(5);
    expect(await maxAge(short, 'plain.oak.eth')).toBe(5);
  });

  it('answers equal requests in one window with equal bytes and ETag, and skips signing for a matching ETag', async () => {
    const sut = service(300, { RESOLUTION_CACHE_SECONDS: '600' });
    const data = call('alice.oak.eth');
    const sign = jest.spyOn(SigningService.prototype, 'signCcipAnswer');
    const first = await sut.resolve(SENDER, data);
    const second = await sut.resolve(SENDER.toLowerCase(), data);
    expect(second.data).toBe(first.data);
    expect(second.etag).toBe(first.etag);
    expect(first).toMatchObject({ notModified: false, nodes: [namehash('alice.oak.eth')] });
    // s-maxage: 600 asked, at most the remaining validity (more than 240 s) less 60 s.
    expect(first.sharedMaxAgeSeconds).toBeGreaterThan(180);
    expect(first.sharedMaxAgeSeconds).toBeLessThanOrEqual(240);
    expect((await sut.resolve(SENDER, call('plain.oak.eth'))).etag).not.toBe(first.etag);
    sign.mockClear();
    const current = await sut.resolve(SENDER, data, `"other", ${first.etag}`);
    expect(current).toMatchObject({ notModified: true, data: '', etag: first.etag });
    expect(sign).not.toHaveBeenCalled();
    expect((await service(300).resolve(SENDER, data)).sharedMaxAgeSeconds).toBe(0);
    sign.mockRestore();
  });

  it('names the reverse name and the chosen primary name as what a name() answer read', async () => {
    const answer = await service(300).resolve(SENDER, call(REVERSE, 'name'));
    expect(answer.nodes).toEqual([namehash(REVERSE), namehash('alice.oak.eth')]);
  });

  it('refuses with the problem codes of docs/reference.md#resolution-gateway, naming the field', async () => {
    const sut = service(300);
    const refusal = async (data: string) => {
      try {
        await sut.resolve(SENDER, data);
      } catch (e) {
        if (e instanceof DomainError) return { code: e.code, status: e.status, field: e.errors?.[0].field };
        throw e;
      }
      throw new Error('answered');
    };
    expect(await refusal(call('alice.oak.eth', 'pubkey'))).toEqual({
      code: 'UNSUPPORTED_RESOLVER_CALL',
      status: 400,
      field: 'data.call',
    });
    expect(await refusal('0x12345678')).toEqual({ code: 'VALIDATION_FAILED', status: 400, field: 'data' });
    const wrongNode = iface.encodeFunctionData('resolve', [
      dnsEncode('alice.oak.eth'),
      iface.encodeFunctionData('addr', [namehash('bob.oak.eth')]),
    ]);
    expect(await refusal(wrongNode)).toEqual({ code: 'VALIDATION_FAILED', status: 400, field: 'data.node' });
  });

  it("answers name() of an address's reverse name with its primary-name answer, alone and in a multicall", async () => {
    const sut = service(300);
    const result = async (data: string) =>
      AbiCoder.defaultAbiCoder().decode(['bytes', 'uint64', 'bytes'], (await sut.resolve(SENDER, data)).data)[0];
    const name = await result(call(REVERSE, 'name'));
    expect(AbiCoder.defaultAbiCoder().decode(['string'], name)[0]).toBe('alice.oak.eth');
    expect(primaryNames.reverseLookup).toHaveBeenCalledWith(REVERSE);
    // Any other name: the empty string, signed like every answer.
    expect(AbiCoder.defaultAbiCoder().decode(['string'], await result(call('alice.oak.eth', 'name')))[0]).toBe('');
    const node = namehash(REVERSE);
    const multi = iface.encodeFunctionData('resolve', [
      dnsEncode(REVERSE),
      iface.encodeFunctionData('multicall', [
        [iface.encodeFunctionData('addr', [node]), iface.encodeFunctionData('name', [node])],
      ]),
    ]);
    const [answers] = AbiCoder.defaultAbiCoder().decode(['bytes[]'], await result(multi)) as unknown as [string[]];
    expect(AbiCoder.defaultAbiCoder().decode(['address'], answers[0])[0]).toBe(ZeroAddress);
    expect(AbiCoder.defaultAbiCoder().decode(['string'], answers[1])[0]).toBe('alice.oak.eth');
  });

  it('refuses name() whose node is not namehash("<address>.addr.reverse") of the name asked, with a 400', async () => {
    const sut = service(300);
    primaryNames.reverseLookup.mockClear();
    const other = `${'ab'.repeat(20)}.addr.reverse`;
    for (const node of [namehash(other), namehash('alice.oak.eth'), namehash('addr.reverse')]) {
      const data = iface.encodeFunctionData('resolve', [dnsEncode(REVERSE), iface.encodeFunctionData('name', [node])]);
      await expect(sut.resolve(SENDER, data)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        status: 400,
        errors: [{ field: 'data.node', message: expect.stringContaining(`not the namehash of ${REVERSE}`) }],
      });
    }
    expect(primaryNames.reverseLookup).not.toHaveBeenCalled();
  });

  it('describes its signer and the URL template for the resolver, on PUBLIC_URL', () => {
    expect(service(300, { PUBLIC_URL: 'https://subnames.example.com/' }).signer()).toEqual({
      address: gateway.address,
      signatureTtlSeconds: 300,
      urlTemplate: 'https://subnames.example.com/api/v1/ccip-read/{sender}/{data}.json',
    });
    expect(service(300, { PORT: '8080' }).signer().urlTemplate).toBe(
      'http://localhost:8080/api/v1/ccip-read/{sender}/{data}.json',
    );
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://u@h/db' };
    expect(service(300, production).signer().urlTemplate).toBeNull();
  });
});
