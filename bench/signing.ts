/**
 * npm run bench:signing — signatures per second on one core: ethers' path (the reference the service used before)
 * beside the service's fast path (precomputed EIP-712 hashing, libsecp256k1), for the mint signature and the
 * CCIP-Read answer signature, and the CCIP-Read digest alone. Each content differs from the last, so nothing is
 * cached. The service's rows are what its signing thread runs per job. Prints a table; writes nothing. Not a test:
 * nothing fails on a slow figure. Environment: BENCH_SIGNING_SECONDS per row (3).
 */
import { performance } from 'node:perf_hooks';
import {
  AbiCoder,
  concat,
  getBytes,
  keccak256,
  type Signature,
  SigningKey,
  solidityPackedKeccak256,
  TypedDataEncoder,
  Wallet,
} from 'ethers';
import { loadConfig } from '../src/config/app-config';
import { ccipDigest } from '../src/signing/ccip-digest';
import { Eip712Digester } from '../src/signing/eip712';
import { MINT_CONTEXT_TYPES, MintContent } from '../src/signing/mint-context';
import { JobSigner } from '../src/signing/signing-jobs';
import { SigningService } from '../src/signing/signing.service';

const SECONDS = Number(process.env.BENCH_SIGNING_SECONDS ?? 3);
const HALF_N = BigInt('0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0');
const MINT_KEY = Wallet.createRandom().privateKey;
const CCIP_KEY = Wallet.createRandom().privateKey;

function content(i: number): MintContent {
  return {
    label: `alice${i}`,
    parentNode: '0x437e3b9bab563acfa6e713f2c6dab6d78deb7bbfd2e9037da34e8d4e5f6e09dd',
    owner: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    price: '5000000000000000',
    fee: '1000000000000000',
    paymentReceiver: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    expiry: 4294967295,
    signatureExpiry: 1795500600 + i,
    verifiedMinter: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    fuses: 65536,
  };
}

/** ethers' signature with the service's checks, as the service signed before the fast path. */
function ethersSign(key: SigningKey, digest: string): string {
  const signature: Signature = key.sign(digest);
  if (BigInt(signature.s) > HALF_N) throw new Error('high s');
  const serialized = signature.serialized;
  if (serialized.length !== 132) throw new Error('not 65 bytes');
  return serialized;
}

/** Calls fn(i) for SECONDS after a short warm-up; returns calls per second. */
function rate(fn: (i: number) => unknown): number {
  for (let i = 0; i < 500; i++) fn(i);
  let n = 0;
  const start = performance.now();
  const end = start + SECONDS * 1000;
  while (performance.now() < end) {
    for (let k = 0; k < 100; k++, n++) fn(n);
  }
  return n / ((performance.now() - start) / 1000);
}

/** Signatures per second of each implementation, measured one after the other on this core. */
export function measureSigning(): SigningRate[] {
  const service = new SigningService(
    loadConfig({
      NODE_ENV: 'test',
      MINT_MAINNET_SIGNER_KEY: MINT_KEY,
      MINT_TESTNET_SIGNER_KEY: MINT_KEY,
      CCIP_SIGNER_KEY: CCIP_KEY,
    }),
  );
  const { domain } = service.info('mainnet');
  const mintKey = new SigningKey(MINT_KEY);
  const ccipKey = new SigningKey(CCIP_KEY);
  const encoder = new TypedDataEncoder(MINT_CONTEXT_TYPES);
  const separator = TypedDataEncoder.hashDomain(domain);
  // What the service's signing thread runs for each job (and the event loop, with SIGNING_THREAD=false).
  const digester = new Eip712Digester(domain, MINT_CONTEXT_TYPES);
  const signer = new JobSigner({ keys: [getBytes(MINT_KEY), getBytes(CCIP_KEY)], structs: [digester.spec] });
  const mintSign = (c: MintContent) => signer.sign({ key: 0, struct: 0, value: c });

  const sender = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
  const request = concat([
    '0x9061b923',
    AbiCoder.defaultAbiCoder().encode(['bytes', 'bytes'], ['0x05616c696365', '0x']),
  ]);
  const result = AbiCoder.defaultAbiCoder().encode(['address'], ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed']);
  const expires = 1795500900n;
  const [requestBytes, resultBytes] = [getBytes(request), getBytes(result)];

  // The two paths must agree before either is timed.
  const c0 = content(0);
  if (mintSign(c0) !== ethersSign(mintKey, TypedDataEncoder.hash(domain, MINT_CONTEXT_TYPES, c0))) {
    throw new Error('mint signatures differ');
  }

  const rows: [string, string, number][] = [
    [
      'mint (EIP-712 MintContext)',
      'ethers: TypedDataEncoder + SigningKey.sign',
      rate((i) => ethersSign(mintKey, keccak256(concat(['0x1901', separator, encoder.hash(content(i))])))),
    ],
    ['', 'service: Eip712Digester + libsecp256k1', rate((i) => mintSign(content(i)))],
    [
      'CCIP-Read answer',
      'ethers: solidityPackedKeccak256 + SigningKey.sign',
      rate((i) =>
        ethersSign(
          ccipKey,
          solidityPackedKeccak256(
            ['bytes2', 'address', 'uint64', 'bytes32', 'bytes32'],
            ['0x1900', sender, expires + BigInt(i), keccak256(request), keccak256(result)],
          ),
        ),
      ),
    ],
    [
      '',
      'service: keccak over bytes + libsecp256k1',
      rate((i) =>
        signer.sign({ key: 1, sender, expires: expires + BigInt(i), request: requestBytes, result: resultBytes }),
      ),
    ],
    [
      'CCIP-Read digest alone',
      'ethers: solidityPackedKeccak256',
      rate((i) =>
        solidityPackedKeccak256(
          ['bytes2', 'address', 'uint64', 'bytes32', 'bytes32'],
          ['0x1900', sender, expires + BigInt(i), keccak256(request), keccak256(result)],
        ),
      ),
    ],
    [
      '',
      'service: keccak_256 over bytes',
      rate((i) => ccipDigest(sender, expires + BigInt(i), requestBytes, resultBytes)),
    ],
  ];
  let reference = 0;
  return rows.map(([what, how, perSecond]) => {
    if (what !== '') reference = perSecond;
    return { signature: what, implementation: how, perSecond, timesEthers: perSecond / reference };
  });
}

export interface SigningRate {
  signature: string;
  implementation: string;
  perSecond: number;
  timesEthers: number;
}

export function printSigning(rates: SigningRate[]): void {
  const header = ['signature', 'implementation', 'per second (one core)', '× ethers'];
  const table = rates.map((r) => [
    r.signature,
    r.implementation,
    Math.round(r.perSecond).toLocaleString('en-US'),
    r.timesEthers.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const line = (r: string[]) =>
    `| ${r.map((v, i) => (i >= 2 ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i >= 2 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`);
  for (const r of table) console.log(line(r));
}

if (require.main === module) printSigning(measureSigning());
