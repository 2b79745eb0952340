import { concat, id, Wallet } from 'ethers';
import { loadConfig } from '../config/app-config';
import { HolderSignature } from './holder-signature';

const digest = id('a PrimaryName digest');
const ERC6492_SUFFIX = `0x${'6492'.repeat(16)}`;

describe(HolderSignature.name, () => {
  const holder = Wallet.createRandom();
  const other = Wallet.createRandom();
  const withoutChain = new HolderSignature(loadConfig({ NODE_ENV: 'test' }));

  it("takes the holder's own ECDSA signature without a chain", async () => {
    const signature = holder.signingKey.sign(digest).serialized;
    expect(await withoutChain.isHolders(holder.address, digest, signature)).toBe(true);
    expect(await withoutChain.isHolders(holder.address.toLowerCase(), digest, signature)).toBe(true);
  });

  it("refuses another key's signature, one of another digest, and bytes that are no signature", async () => {
    expect(await withoutChain.isHolders(holder.address, digest, other.signingKey.sign(digest).serialized)).toBe(false);
    expect(await withoutChain.isHolders(holder.address, digest, holder.signingKey.sign(id('x')).serialized)).toBe(
      false,
    );
    expect(await withoutChain.isHolders(holder.address, digest, `0x${'00'.repeat(65)}`)).toBe(false);
    expect(await withoutChain.isHolders(holder.address, digest, `0x${'ab'.repeat(120)}`)).toBe(false);
  });

  it('answers 503 CHAIN_UNAVAILABLE for an ERC-6492 signature when there is no chain to check it on', async () => {
    const wrapped = concat([`0x${'ab'.repeat(96)}`, ERC6492_SUFFIX]);
    await expect(withoutChain.isHolders(holder.address, digest, wrapped)).rejects.toMatchObject({
      code: 'CHAIN_UNAVAILABLE',
    });
  });

  it('answers 503 CHAIN_UNAVAILABLE when ENS_RPC_URL does not answer, never a refusal', async () => {
    const unreachable = new HolderSignature(loadConfig({ NODE_ENV: 'test', ENS_RPC_URL: 'http://127.0.0.1:9' }));
    await expect(unreachable.isHolders(holder.address, digest, `0x${'ab'.repeat(120)}`)).rejects.toMatchObject({
      code: 'CHAIN_UNAVAILABLE',
    });
  });
});
