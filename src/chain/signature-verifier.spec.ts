import { concat, id, Wallet } from 'ethers';
import { loadConfig } from '../config/app-config';
import { SiweVerifier } from '../portal/siwe-verifier';
import { EnsChainService, SignatureVerifier } from './chain.module';

const digest = id('a PrimaryName digest');
const ERC6492_SUFFIX = `0x${'6492'.repeat(16)}`;
const verifierOf = (env: Record<string, string>) =>
  new SignatureVerifier(new EnsChainService(loadConfig({ NODE_ENV: 'test', ...env })));

describe(SignatureVerifier.name, () => {
  const holder = Wallet.createRandom();
  const other = Wallet.createRandom();
  const withoutChain = verifierOf({});

  it("takes the holder's own ECDSA signature without a chain", async () => {
    const signature = holder.signingKey.sign(digest).serialized;
    expect(await withoutChain.verifyHash(holder.address, digest, signature)).toBe(true);
    expect(await withoutChain.verifyHash(holder.address.toLowerCase(), digest, signature)).toBe(true);
    expect(await withoutChain.verifyMessage(holder.address, 'hello', await holder.signMessage('hello'))).toBe(true);
  });

  it("refuses another key's signature, one of another digest, and bytes that are no signature", async () => {
    expect(await withoutChain.verifyHash(holder.address, digest, other.signingKey.sign(digest).serialized)).toBe(false);
    expect(await withoutChain.verifyHash(holder.address, digest, holder.signingKey.sign(id('x')).serialized)).toBe(
      false,
    );
    expect(await withoutChain.verifyHash(holder.address, digest, `0x${'00'.repeat(65)}`)).toBe(false);
    expect(await withoutChain.verifyHash(holder.address, digest, `0x${'ab'.repeat(120)}`)).toBe(false);
    expect(await withoutChain.verifyHash(holder.address, digest, 'not hex')).toBe(false);
  });

  it('answers 503 CHAIN_UNAVAILABLE for an ERC-6492 signature when there is no chain to check it on', async () => {
    const wrapped = concat([`0x${'ab'.repeat(96)}`, ERC6492_SUFFIX]);
    await expect(withoutChain.verifyHash(holder.address, digest, wrapped)).rejects.toMatchObject({
      code: 'CHAIN_UNAVAILABLE',
    });
  });

  it('one door: a registry read, a primary-name signature and a sign-in fail on a dead endpoint with one text', async () => {
    const env = { ENS_RPC_URL: 'http://127.0.0.1:9', PUBLIC_URL: 'https://subnames.example.com' };
    const chains = new EnsChainService(loadConfig({ NODE_ENV: 'test', ...env }));
    const signatures = new SignatureVerifier(chains);
    const siwe = new SiweVerifier(loadConfig({ NODE_ENV: 'test', ...env }), signatures);
    const now = new Date();
    const fields = { address: holder.address, nonce: 'a1b2c3d4e5f6a7b8c9d0', issuedAt: now };
    const message = siwe.message({ ...fields, expirationTime: new Date(now.getTime() + 60_000) });
    const junk = `0x${'ab'.repeat(120)}`;
    const failures = await Promise.all([
      chains
        .get()
        .resolverOf('oak.eth')
        .catch((e: unknown) => e),
      signatures.verifyHash(holder.address, digest, junk).catch((e: unknown) => e),
      siwe.verify(message, junk, holder.address, fields.nonce).catch((e: unknown) => e),
    ]);
    const texts = failures.map((e) => ({ code: (e as { code?: string }).code, text: (e as Error).message }));
    expect(texts).toEqual(
      Array(3).fill({
        code: 'CHAIN_UNAVAILABLE',
        text: 'The Ethereum JSON-RPC endpoint http://127.0.0.1:9 failed; try again shortly',
      }),
    );
    chains.onModuleDestroy();
  });
});
