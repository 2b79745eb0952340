import { AbiCoder, Interface, Wallet, ZeroAddress } from 'ethers';
import { ENSIP10_INTERFACE_ID, EXTENDED_RESOLVER } from '../chain/ens-abis';
import type { CallOutcome, EnsChain, NameHolder } from '../chain/ens-chain';
import { ChainUnavailableError } from '../chain/chain.errors';
import { checkResolver, type GatewayView } from './resolver-check';

const RESOLVER = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
const OWNER = '0x1111111111111111111111111111111111111111';
const TEMPLATE = 'https://subnames.example.com/api/v1/ccip-read/{sender}/{data}.json';
const signer = Wallet.createRandom().address;
const coder = AbiCoder.defaultAbiCoder();
const RESOLVE = EXTENDED_RESOLVER.getFunction('resolve')!.selector;
const SIGNERS = EXTENDED_RESOLVER.getFunction('signers')!.selector;
const CALLBACK = new Interface(['function resolveWithProof(bytes,bytes)']).getFunction('resolveWithProof')!.selector;

/** A chain whose resolver answers as `opts` says; anything else in it is a well-behaved offchain resolver. */
function fakeChain(opts: {
  resolver?: string | null;
  holder?: Partial<NameHolder>;
  wildcard?: boolean;
  urls?: string[];
  trusts?: boolean;
  proof?: CallOutcome;
  down?: boolean;
}): EnsChain {
  const lookup = (data: string) =>
    EXTENDED_RESOLVER.encodeErrorResult('OffchainLookup', [RESOLVER, opts.urls ?? [TEMPLATE], data, CALLBACK, data]);
  const call = (_to: string, data: string): Promise<CallOutcome> => {
    if (opts.down) return Promise.reject(new ChainUnavailableError('down'));
    if (data.startsWith(RESOLVE)) return Promise.resolve({ ok: false, revert: lookup(data) });
    if (data.startsWith(SIGNERS))
      return Promise.resolve({ ok: true, data: coder.encode(['bool'], [opts.trusts ?? true]) });
    return Promise.resolve(
      opts.proof ?? { ok: true, data: coder.encode(['bytes'], [coder.encode(['address'], [OWNER])]) },
    );
  };
  return {
    chainId: 1,
    registry: '0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e',
    resolverOf: () =>
      opts.down
        ? Promise.reject(new ChainUnavailableError('down'))
        : Promise.resolve(opts.resolver === undefined ? RESOLVER : opts.resolver),
    holder: () =>
      Promise.resolve({ registryOwner: OWNER, wrapped: false, owner: OWNER, fuses: 0, expiry: 0n, ...opts.holder }),
    supportsInterface: (_a: string, id: string) =>
      Promise.resolve(id === ENSIP10_INTERFACE_ID && (opts.wildcard ?? true)),
    call,
  } as unknown as EnsChain;
}

const gateway: GatewayView = {
  signer: () => Promise.resolve({ address: signer, urlTemplate: TEMPLATE }),
  answer: () => Promise.resolve('0x1234'),
  probeName: (parent) => Promise.resolve(`alice.${parent}`),
};

describe(checkResolver.name, () => {
  const failure = async (chain: EnsChain, gw = gateway) => {
    const check = await checkResolver(chain, gw, 'oak.eth');
    expect(check.steps.map((s) => s.step)).toEqual(['registry', 'wildcard', 'gateway', 'signer', 'answer']);
    expect(check.ok).toBe(false);
    const failed = check.steps.findIndex((s) => !s.ok);
    for (const later of check.steps.slice(failed + 1))
      expect(later).toMatchObject({ ok: false, detail: expect.stringMatching(/^Not run: the \w+ step failed$/) });
    return check.steps[failed];
  };

  it('passes all five steps, naming the subname and the address it resolved to', async () => {
    const check = await checkResolver(fakeChain({}), gateway, 'oak.eth');
    expect(check.ok).toBe(true);
    expect(check.steps.every((s) => s.ok)).toBe(true);
    expect(check.steps[4].detail).toBe(
      `alice.oak.eth resolves through ${RESOLVER} to the address ${OWNER}, the signature verified by the contract itself`,
    );
  });

  it('asks about a stored label over 63 bytes (DNS-encoded up to 255, as the gateway reads it)', async () => {
    const long = 'a'.repeat(200);
    const check = await checkResolver(
      fakeChain({}),
      { ...gateway, probeName: (p) => Promise.resolve(`${long}.${p}`) },
      'oak.eth',
    );
    expect(check.ok).toBe(true);
    expect(check.steps[4].detail).toContain(`${long}.oak.eth resolves through ${RESOLVER}`);
  });

  it('falls back to an unstored label when the stored one cannot be DNS-encoded (over 255 bytes)', async () => {
    const check = await checkResolver(
      fakeChain({}),
      { ...gateway, probeName: (p) => Promise.resolve(`${'b'.repeat(256)}.${p}`) },
      'oak.eth',
    );
    expect(check.ok).toBe(true);
    expect(check.steps[4].detail).toMatch(/^check-[0-9a-f]{12}\.oak\.eth resolves through /);
  });

  it('registry: no resolver says which commands to run; an unregistered name says so', async () => {
    const none = await failure(fakeChain({ resolver: null }));
    expect(none.step).toBe('registry');
    // The service's own URL template and signer, not placeholders.
    expect(none.detail).toContain(`npm run cli -- resolver deploy --url-template ${TEMPLATE} --signer ${signer}\``);
    expect(none.detail).toContain('npm run cli -- resolver use oak.eth --resolver <the address it prints>');
    expect(none.detail).not.toMatch(/\b(URL|ADDRESS)\b/);
    expect(none.detail).toContain(`sent by ${OWNER}`);
    const unregistered = await failure(fakeChain({ resolver: null, holder: { registryOwner: ZeroAddress } }));
    expect(unregistered.detail).toMatch(/^oak\.eth is not registered in the ENS registry/);
  });

  it('wildcard: a resolver without ENSIP-10 is named, with the deploy and use commands', async () => {
    const step = await failure(fakeChain({ wildcard: false }));
    expect(step.step).toBe('wildcard');
    expect(step.detail).toContain('does not support ENSIP-10');
    expect(step.detail).toContain('resolver deploy');
  });

  it('gateway: accepts the POST form, refuses another URL, and needs PUBLIC_URL', async () => {
    const post = await checkResolver(
      fakeChain({ urls: ['https://subnames.example.com/api/v1/ccip-read'] }),
      gateway,
      'oak.eth',
    );
    expect(post.ok).toBe(true);
    const elsewhere = await failure(fakeChain({ urls: ['https://other.example/{sender}/{data}.json'] }));
    expect(elsewhere.step).toBe('gateway');
    expect(elsewhere.detail).toContain(`resolver url --resolver ${RESOLVER} --url-template ${TEMPLATE}`);
    const noPublicUrl = await failure(fakeChain({}), {
      ...gateway,
      signer: () => Promise.resolve({ address: signer, urlTemplate: null }),
    });
    expect(noPublicUrl.detail).toContain('set PUBLIC_URL');
  });

  it('signer: a resolver answering signers(address) with something else than a bool cannot be checked', async () => {
    const chain = fakeChain({});
    const call = chain.call.bind(chain);
    (chain as unknown as { call: EnsChain['call'] }).call = (to, data) =>
      data.startsWith(SIGNERS) ? Promise.resolve({ ok: true, data: '0x' }) : call(to, data);
    const step = await failure(chain);
    expect(step.step).toBe('signer');
    expect(step.detail).toContain('does not answer signers(address)');
  });

  it('signer: an untrusted signer names the signers --add command', async () => {
    const step = await failure(fakeChain({ trusts: false }));
    expect(step.step).toBe('signer');
    expect(step.detail).toContain(`resolver signers --resolver ${RESOLVER} --add ${signer}`);
  });

  it('answer: the contract refusing the signature, an expired answer, a gateway that fails', async () => {
    const invalid = EXTENDED_RESOLVER.encodeErrorResult('InvalidSigner', [OWNER]);
    const refused = await failure(fakeChain({ proof: { ok: false, revert: invalid } }));
    expect(refused.step).toBe('answer');
    expect(refused.detail).toContain(`InvalidSigner(${OWNER})`);
    expect(refused.detail).toContain('CCIP_SIGNER_KEY');
    const expired = EXTENDED_RESOLVER.encodeErrorResult('SignatureExpired', [1n, 2n]);
    expect((await failure(fakeChain({ proof: { ok: false, revert: expired } }))).detail).toContain("service's clock");
    const broken = await failure(fakeChain({}), {
      ...gateway,
      answer: () => Promise.reject(new Error('GET … answered 500')),
    });
    expect(broken.detail).toBe('The gateway did not answer the lookup for alice.oak.eth: GET … answered 500');
  });

  it('lets a chain that cannot be read fail the whole check (503), not a step', async () => {
    await expect(checkResolver(fakeChain({ down: true }), gateway, 'oak.eth')).rejects.toBeInstanceOf(
      ChainUnavailableError,
    );
  });
});
