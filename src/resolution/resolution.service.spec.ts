import { AbiCoder, dnsEncode, Interface, namehash, recoverAddress, Wallet } from 'ethers';
import { DomainError } from '../common/errors';
import { loadConfig } from '../config/app-config';
import { ccipAnswerDigest } from '../../test/support/ccip-reference';
import { SigningService } from '../signing/signing.service';
import type { SubnameRecords, SubnamesService } from '../subnames/subnames.service';
import { ResolutionService } from './resolution.service';

const iface = new Interface([
  'function resolve(bytes name, bytes data)',
  'function addr(bytes32 node)',
  'function name(bytes32 node)',
]);
const SENDER = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const call = (name: string, fn = 'addr') =>
  iface.encodeFunctionData('resolve', [dnsEncode(name), iface.encodeFunctionData(fn, [namehash(name)])]);

describe(ResolutionService.name, () => {
  const gateway = Wallet.createRandom();
  let stored: Record<string, SubnameRecords>;
  const subnames = { records: jest.fn(async (name: string) => stored[name] ?? null) };

  function service(ttlSeconds: number, env: Record<string, string> = {}): ResolutionService {
    const config = loadConfig({
      NODE_ENV: 'test',
      ...env,
      MINT_MAINNET_SIGNER_KEY: Wallet.createRandom().privateKey,
      MINT_TESTNET_SIGNER_KEY: Wallet.createRandom().privateKey,
      CCIP_SIGNER_KEY: gateway.privateKey,
      CCIP_SIGNATURE_TTL_SECONDS: String(ttlSeconds),
    });
    return new ResolutionService(subnames as unknown as SubnamesService, new SigningService(config), config);
  }

  beforeEach(() => {
    stored = {
      'alice.oak.eth': { texts: {}, addresses: { '60': ETH }, contenthash: null, ttl: 120 },
      'zero.oak.eth': { texts: {}, addresses: {}, contenthash: null, ttl: 0 },
      'long.oak.eth': { texts: {}, addresses: {}, contenthash: null, ttl: 4294967295 },
      'plain.oak.eth': { texts: {}, addresses: {}, contenthash: null, ttl: null },
    };
  });

  it('signs the answer for the sender (any letter case) with an expiry of now + the signature lifetime', async () => {
    const sut = service(300);
    const data = call('alice.oak.eth');
    const before = Math.floor(Date.now() / 1000);
    const answer = await sut.resolve(SENDER.toLowerCase(), data);
    const [result, expires, signature] = AbiCoder.defaultAbiCoder().decode(['bytes', 'uint64', 'bytes'], answer.data);
    expect(AbiCoder.defaultAbiCoder().decode(['address'], result)[0]).toBe(ETH);
    expect(Number(expires) - before).toBeGreaterThanOrEqual(300);
    expect(Number(expires) - before).toBeLessThanOrEqual(301);
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
    expect(await refusal(call('alice.oak.eth', 'name'))).toEqual({
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
