import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { DEEP } from './support/property-runs';
import { logChild } from './support/suite-log';

// Each stop lands at one of four moments (round % 4): 20 rounds hit each five times, test:deep fifteen.
const ROUNDS = DEEP ? 60 : 20;

/**
 * Starts the signing thread, sends it hundreds of digests and stops it while it signs, ROUNDS times, in a process
 * of its own (an abort would take jest down with it). Every answer is a signature; a sample of each round must recover to the signer.
 */
const SCRIPT = `
const { SigningThread } = require(${JSON.stringify(join(__dirname, '..', 'dist', 'signing', 'signing-thread.js'))});
const { Wallet, getBytes, recoverAddress, hexlify } = require('ethers');
const { randomBytes } = require('node:crypto');
const keepAlive = setInterval(() => {}, 1000);
(async () => {
  const wallet = Wallet.createRandom();
  let checked = 0;
  for (let round = 0; round < ${ROUNDS}; round++) {
    const thread = new SigningThread((e) => { throw e; });
    thread.addKey(getBytes(wallet.privateKey));
    thread.start();
    await thread.sign({ key: 0, digest: randomBytes(32) });
    const digests = Array.from({ length: 400 }, () => randomBytes(32));
    const signed = digests.map((digest) => thread.sign({ key: 0, digest }));
    await new Promise((r) => setTimeout(r, round % 4));
    await thread.stop();
    const signatures = await Promise.all(signed);
    // Recovering all 400 in JavaScript takes a second a round: the first and last few of each round are checked.
    for (const i of [0, 1, 2, 3, 396, 397, 398, 399]) {
      if (recoverAddress(hexlify(digests[i]), signatures[i]) !== wallet.address) throw new Error('wrong signature');
    }
    if (!signatures.every((s) => /^0x[0-9a-f]{130}$/.test(s))) throw new Error('not a signature');
    checked += signatures.length;
  }
  clearInterval(keepAlive);
  console.log('signed ' + checked);
})().catch((e) => { console.error(e); process.exit(1); });
`;

describe('the signing thread stopped while it signs', () => {
  it(`ends between two signatures: ${ROUNDS} stops mid-batch, no abort, each round's signatures recover to the key`, async () => {
    const { code, signal, stdout, stderr } = await new Promise<{
      code: number | null;
      signal: NodeJS.Signals | null;
      stdout: string;
      stderr: string;
    }>((resolve, reject) => {
      const child = logChild('signer', spawn(process.execPath, ['-e', SCRIPT], { cwd: join(__dirname, '..') }));
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' });
    expect(stdout.trim()).toBe(`signed ${ROUNDS * 400}`);
  });
});
