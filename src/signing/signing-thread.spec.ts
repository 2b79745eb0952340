import fc from 'fast-check';
import { getBytes, hexlify, keccak256, SigningKey, solidityPackedKeccak256, TypedDataEncoder, Wallet } from 'ethers';
import { address, bytes, mintContent } from '../../test/support/mint-content.arbitrary';
import { Eip712Digester } from './eip712';
import { MINT_CONTEXT_TYPES } from './mint-context';
import { ANSWER_CHUNK, JobSigner, SignJob } from './signing-jobs';
import { SigningThread } from './signing-thread';
import { runs } from '../../test/support/property-runs';

const SEED = 20261124;
const KEYS = [Wallet.createRandom().privateKey, Wallet.createRandom().privateKey];
const DOMAINS = [
  { name: 'namespace', version: '1', chainId: 1, verifyingContract: '0xCf7625A2fb60B0822444E5964b4Ce80c148e7Fad' },
  {
    name: 'namespace',
    version: '1',
    chainId: 11155111,
    verifyingContract: '0x313442ba3A0b12193787BD162f99Ed3C415F2886',
  },
];
const STRUCTS = DOMAINS.map((d) => new Eip712Digester(d, MINT_CONTEXT_TYPES).spec);

const key = fc.integer({ min: 0, max: 1 });
/** Jobs of the three kinds: a digest, a MintContext of either domain, a gateway answer. */
const job: fc.Arbitrary<SignJob> = fc.oneof(
  fc.record({ key, digest: bytes(32, 32) }),
  fc.record({ key, struct: fc.integer({ min: 0, max: 1 }), value: mintContent }),
  fc.record({
    key,
    sender: address,
    expires: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
    request: bytes(0, 300),
    result: bytes(0, 300),
  }),
);

/** What ethers signs for a job: SigningKey.sign of the digest, the TypedDataEncoder hash or the answer's digest. */
function ethersSignature(j: SignJob): string {
  let digest: Uint8Array | string;
  if ('digest' in j) digest = j.digest;
  else if ('struct' in j) digest = TypedDataEncoder.hash(DOMAINS[j.struct], MINT_CONTEXT_TYPES, j.value);
  else {
    digest = solidityPackedKeccak256(
      ['bytes2', 'address', 'uint64', 'bytes32', 'bytes32'],
      ['0x1900', j.sender, j.expires, keccak256(j.request), keccak256(j.result)],
    );
  }
  return new SigningKey(KEYS[j.key]).sign(digest).serialized;
}

/** A thread holding both keys and both mint domains, not started. */
function thread(failures: Error[] = [], running: boolean[] = []): SigningThread {
  const t = new SigningThread(
    (e) => failures.push(e),
    (r) => running.push(r),
  );
  for (const k of KEYS) t.addKey(getBytes(k));
  for (const spec of STRUCTS) t.addStruct(spec);
  return t;
}

function startedThread(failures: Error[] = [], running: boolean[] = []): SigningThread {
  const t = thread(failures, running);
  t.start();
  return t;
}

/** Runs `test` with a started thread, and stops the thread after it. */
async function onThread(test: (t: SigningThread) => Promise<void>): Promise<void> {
  const t = startedThread();
  try {
    await test(t);
  } finally {
    await t.stop();
  }
}

describe(SigningThread.name, () => {
  it(`signs byte for byte as ethers, ${runs(900)} generated jobs of every kind asked at once, each its own`, async () => {
    await onThread(async (t) => {
      const jobs = fc.sample(job, { seed: SEED, numRuns: runs(900) });
      const signatures = await Promise.all(jobs.map((j) => t.sign(j)));
      signatures.forEach((signature, i) => expect(signature).toBe(ethersSignature(jobs[i])));
    });
  });

  it('signs views of larger buffers by their own bytes (pooled Buffers, as the gateway decodes calldata into)', async () => {
    await onThread(async (t) => {
      const jobs = fc.sample(job, { seed: SEED + 3, numRuns: runs(200) }).map((j): SignJob => {
        // Buffer.from(hex) of a small value is a view into Node's shared 8 KB pool.
        const pooled = (b: Uint8Array) => Buffer.from(hexlify(b).slice(2), 'hex');
        if ('digest' in j) return { ...j, digest: pooled(j.digest) };
        if ('request' in j) return { ...j, request: pooled(j.request), result: pooled(j.result) };
        return j;
      });
      expect(jobs.some((j) => 'request' in j && j.request.byteOffset > 0)).toBe(true);
      const signatures = await Promise.all(jobs.map((j) => t.sign(j)));
      signatures.forEach((signature, i) => expect(signature).toBe(ethersSignature(jobs[i])));
    });
  });

  it('signs the same on the event loop when not started (JobSigner, as the thread runs it)', async () => {
    const t = thread();
    const here = new JobSigner({ keys: KEYS.map((k) => getBytes(k)), structs: STRUCTS });
    for (const j of fc.sample(job, { seed: SEED + 2, numRuns: runs(300) })) {
      const signature = ethersSignature(j);
      expect(here.sign(j)).toBe(signature);
      expect(await t.sign(j)).toBe(signature);
    }
  });

  it('hands a batch back a few signatures at a time: the first are taken up while the rest are still signed', async () => {
    await onThread(async (t) => {
      const jobs = fc.sample(job, { seed: SEED + 3, numRuns: 10 * ANSWER_CHUNK + 1 });
      let settled = 0;
      let settledWhenFirstArrived = -1;
      const signatures = jobs.map((j, i) =>
        t.sign(j).then((signature) => {
          settled += 1;
          if (i === 0) settledWhenFirstArrived = settled;
          return signature;
        }),
      );
      // One batch went over; the first message of answers carried ANSWER_CHUNK of them, no more.
      expect(await signatures[0]).toBe(ethersSignature(jobs[0]));
      expect(settledWhenFirstArrived).toBe(1);
      expect(settled).toBeLessThanOrEqual(ANSWER_CHUNK);
      const all = await Promise.all(signatures);
      all.forEach((signature, i) => expect(signature).toBe(ethersSignature(jobs[i])));
    });
  });

  it('refuses only the job that cannot be signed, naming why; the rest of its batch is signed', async () => {
    await onThread(async (t) => {
      const good: SignJob = { key: 1, digest: new Uint8Array(32).fill(7) };
      const answers = await Promise.allSettled([
        t.sign(good),
        t.sign({ key: 0, sender: '0x1234', expires: 1n, request: new Uint8Array(), result: new Uint8Array() }),
        t.sign({ key: 0, digest: new Uint8Array(31) }),
        t.sign({ key: 1, struct: 0, value: { label: 'a' } }),
        t.sign(good),
      ]);
      const refusals = answers.map((a) => (a.status === 'rejected' ? (a.reason as Error).message : null));
      expect(refusals).toEqual([
        null,
        'not an address: 0x1234',
        'a digest to sign is 32 bytes',
        'not 32 bytes of hex: undefined',
        null,
      ]);
      for (const i of [0, 4]) expect((answers[i] as PromiseFulfilledResult<string>).value).toBe(ethersSignature(good));
    });
  });

  it('loses no signature when the thread stops with jobs in flight or queued: they, and later ones, are signed here', async () => {
    const failures: Error[] = [];
    const running: boolean[] = [];
    const t = startedThread(failures, running);
    expect(running).toEqual([true]);
    const jobs = fc.sample(job, { seed: SEED + 1, numRuns: 300 });
    // Warm: the thread answers.
    expect(await t.sign(jobs[0])).toBe(ethersSignature(jobs[0]));
    const first = jobs.slice(0, 150).map((j) => t.sign(j));
    // Let the first batch leave, then stop the thread while it signs, with a second batch still queued.
    await new Promise((r) => setImmediate(r));
    const second = jobs.slice(150, 250).map((j) => t.sign(j));
    await t.stop();
    expect(running).toEqual([true, false]);
    const after = jobs.slice(250).map((j) => t.sign(j));
    const signatures = await Promise.all([...first, ...second, ...after]);
    signatures.forEach((signature, i) => expect(signature).toBe(ethersSignature(jobs[i])));
    expect(failures).toEqual([]);
  });

  it('takes keys and types only before its first signature', async () => {
    const started = startedThread();
    const here = thread();
    try {
      expect(() => started.addKey(getBytes(KEYS[0]))).toThrow('keys and types are added before the first signature');
      await here.sign({ key: 0, digest: new Uint8Array(32) });
      expect(() => here.addStruct(STRUCTS[0])).toThrow('keys and types are added before the first signature');
    } finally {
      await started.stop();
    }
  });
});
