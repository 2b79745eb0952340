import fc from 'fast-check';
import { getAddress, getBytes, hexlify, keccak256, SigningKey, solidityPackedKeccak256, Wallet } from 'ethers';
import { runSignJob, SignJob } from './signing-jobs';
import { SigningThread } from './signing-thread';

const SEED = 20261124;
const KEYS = [Wallet.createRandom().privateKey, Wallet.createRandom().privateKey];

const bytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max });
const job: fc.Arbitrary<SignJob> = fc.oneof(
  fc.record({ key: fc.integer({ min: 0, max: 1 }), digest: bytes(32, 32) }),
  fc.record({
    key: fc.integer({ min: 0, max: 1 }),
    sender: bytes(20, 20).map((b) => getAddress(hexlify(b))),
    expires: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
    request: bytes(0, 300),
    result: bytes(0, 300),
  }),
);

/** What ethers signs for a job: SigningKey.sign of the digest, or of the gateway answer's solidityPacked digest. */
function ethersSignature(j: SignJob): string {
  const digest =
    'digest' in j
      ? j.digest
      : solidityPackedKeccak256(
          ['bytes2', 'address', 'uint64', 'bytes32', 'bytes32'],
          ['0x1900', j.sender, j.expires, keccak256(j.request), keccak256(j.result)],
        );
  return new SigningKey(KEYS[j.key]).sign(digest).serialized;
}

function startThread(failures: Error[] = []): SigningThread {
  const thread = new SigningThread((e) => failures.push(e));
  for (const key of KEYS) thread.addKey(getBytes(key));
  thread.start();
  return thread;
}

describe(SigningThread.name, () => {
  it('signs byte for byte as ethers and as the event loop would, 600 generated jobs asked at once, each its own', async () => {
    const thread = startThread();
    try {
      const jobs = fc.sample(job, { seed: SEED, numRuns: 600 });
      const signatures = await Promise.all(jobs.map((j) => thread.sign(j)));
      signatures.forEach((signature, i) => {
        expect(signature).toBe(ethersSignature(jobs[i]));
        expect(signature).toBe(
          runSignJob(
            KEYS.map((k) => getBytes(k)),
            jobs[i],
          ),
        );
      });
    } finally {
      await thread.stop();
    }
  });

  it('refuses only the job that cannot be signed, naming why; the rest of its batch is signed', async () => {
    const thread = startThread();
    try {
      const good: SignJob = { key: 1, digest: new Uint8Array(32).fill(7) };
      const answers = await Promise.allSettled([
        thread.sign(good),
        thread.sign({ key: 0, sender: '0x1234', expires: 1n, request: new Uint8Array(), result: new Uint8Array() }),
        thread.sign({ key: 0, digest: new Uint8Array(31) }),
        thread.sign(good),
      ]);
      expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
      expect((answers[1] as PromiseRejectedResult).reason.message).toBe('not an address: 0x1234');
      expect((answers[2] as PromiseRejectedResult).reason.message).toBe('a digest to sign is 32 bytes');
      expect((answers[0] as PromiseFulfilledResult<string>).value).toBe(ethersSignature(good));
    } finally {
      await thread.stop();
    }
  });

  it('loses no signature when the thread stops with jobs in flight or queued: they, and later ones, are signed here', async () => {
    const failures: Error[] = [];
    const thread = startThread(failures);
    const jobs = fc.sample(job, { seed: SEED + 1, numRuns: 300 });
    // Warm: the thread answers.
    expect(await thread.sign(jobs[0])).toBe(ethersSignature(jobs[0]));
    const first = jobs.slice(0, 150).map((j) => thread.sign(j));
    // Let the first batch leave, then stop the thread while it signs, with a second batch still queued.
    await new Promise((r) => setImmediate(r));
    const second = jobs.slice(150, 250).map((j) => thread.sign(j));
    await thread.stop();
    const after = jobs.slice(250).map((j) => thread.sign(j));
    const signatures = await Promise.all([...first, ...second, ...after]);
    signatures.forEach((signature, i) => expect(signature).toBe(ethersSignature(jobs[i])));
    expect(failures).toEqual([]);
  });

  it('takes keys only before it starts', async () => {
    const thread = startThread();
    try {
      expect(() => thread.addKey(getBytes(KEYS[0]))).toThrow('keys are added before the signing thread starts');
    } finally {
      await thread.stop();
    }
  });
});
