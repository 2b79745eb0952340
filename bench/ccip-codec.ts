/**
 * npm run bench:ccip — microseconds per CCIP-Read request on one core, without HTTP or a database: the codec
 * alone (decodeResolveCall + answer + encodeGatewayResponse with a fixed signature) and ResolutionService.resolve
 * (the same plus the sender checksum and the signature) over records held in memory. Rows for one name asked
 * again and again (a cached name, as wallets ask) and for 20,000 different names in turn (no memo helps).
 * Prints a table; writes nothing. Not a test: nothing fails on a slow figure. Environment: BENCH_CCIP_SECONDS per
 * row (3).
 */
import { performance } from 'node:perf_hooks';
import { dnsEncode, namehash, Wallet } from 'ethers';
import { loadConfig } from '../src/config/app-config';
import { encodeGatewayResponse } from '../src/resolution/answer-encoding';
import { answerBytes } from '../src/resolution/record-answers';
import { calldataBytes, decodeResolveBytes } from '../src/resolution/request-decoding';
import type { PrimaryNamesService } from '../src/primary-names/primary-names.service';
import { ResolutionService } from '../src/resolution/resolution.service';
import { SigningService } from '../src/signing/signing.service';
import type { SubnameRecords, SubnamesService } from '../src/subnames/subnames.service';
import { RESOLVER_CALLS } from '../test/support/calldata';

const SECONDS = Number(process.env.BENCH_CCIP_SECONDS ?? 3);
const SENDER = '0x8464135c8f25da09e49bc8782676a84730c318bc';
const SIGNATURE = `0x${'11'.repeat(32)}${'22'.repeat(32)}1b`;
const iface = RESOLVER_CALLS;
const RECORDS: SubnameRecords = {
  texts: { avatar: 'https://example.com/a.png', 'com.github': 'alice', url: 'https://alice.example' },
  addresses: {
    '60': '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0': '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    '2147483648': '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  },
  contenthash: 'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4',
  ttl: 3600,
};

type Shape = 'addr' | 'text' | 'multicall';
function calldata(name: string, shape: Shape): string {
  const node = namehash(name);
  const addr = iface.encodeFunctionData('addr(bytes32)', [node]);
  const inner =
    shape === 'addr'
      ? addr
      : shape === 'text'
        ? iface.encodeFunctionData('text', [node, 'com.github'])
        : iface.encodeFunctionData('multicall', [
            [
              addr,
              iface.encodeFunctionData('text', [node, 'avatar']),
              iface.encodeFunctionData('addr(bytes32,uint256)', [node, 2147492101n]),
              iface.encodeFunctionData('contenthash', [node]),
            ],
          ]);
  return iface.encodeFunctionData('resolve', [dnsEncode(name), inner]);
}

/** Microseconds per call of fn(i) over SECONDS after a warm-up. */
async function perCall(fn: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < 2000; i++) await fn(i);
  let n = 0;
  const start = performance.now();
  const end = start + SECONDS * 1000;
  while (performance.now() < end) {
    for (let k = 0; k < 200; k++, n++) await fn(n);
  }
  return ((performance.now() - start) * 1000) / n;
}

async function main(): Promise<void> {
  const key = Wallet.createRandom().privateKey;
  const config = loadConfig({
    NODE_ENV: 'test',
    MINT_MAINNET_SIGNER_KEY: key,
    MINT_TESTNET_SIGNER_KEY: key,
    CCIP_SIGNER_KEY: key,
  });
  const subnames = { records: (name: string) => Promise.resolve(name.endsWith('.oak.eth') ? RECORDS : null) };
  const primaryNames = {
    reverseLookup: () => Promise.resolve({ answer: '', chosen: null }),
  } as unknown as PrimaryNamesService;
  const service = new ResolutionService(
    subnames as unknown as SubnamesService,
    new SigningService(config),
    primaryNames,
    config,
  );
  const codec = (data: string) =>
    encodeGatewayResponse(answerBytes(decodeResolveBytes(calldataBytes(data)), RECORDS), 1795500900n, SIGNATURE);

  const many = Array.from({ length: 20000 }, (_, i) => calldata(`name${i}.oak.eth`, 'addr'));
  const rows: [string, string, number][] = [];
  for (const shape of ['addr', 'text', 'multicall'] as Shape[]) {
    const one = calldata('alice.oak.eth', shape);
    rows.push([`${shape}, one name`, 'codec', await perCall(() => codec(one))]);
    rows.push(['', 'service.resolve', await perCall(() => service.resolve(SENDER, one))]);
  }
  rows.push(['addr, 20,000 names', 'codec', await perCall((i) => codec(many[i % many.length]))]);
  rows.push(['', 'service.resolve', await perCall((i) => service.resolve(SENDER, many[i % many.length]))]);

  const header = ['request', 'path', 'µs per request'];
  const table = rows.map(([a, b, us]) => [a, b, us.toFixed(1)]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const line = (r: string[]) =>
    `| ${r.map((v, i) => (i === 2 ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join(' | ')} |`;
  console.log(line(header));
  for (const r of table) console.log(line(r));
}

void main();
