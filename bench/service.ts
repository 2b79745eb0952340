/**
 * What the benches share: a fresh PostgreSQL database, the service started as production starts it, and its
 * processes' CPU time and memory read from /proc.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dnsEncode, Interface, namehash, Wallet } from 'ethers';
import { Client } from 'pg';
import { freePort } from '../test/support/service-process';

export const ADMIN = 'bench-admin-token-0123456789';
export const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
export const SERVICE_NODE_OPTIONS = '--max-old-space-size=192';
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The service to measure: this checkout's build, or BENCH_SERVICE (another build's dist/main.js, to compare). */
export const SERVICE_MAIN = process.env.BENCH_SERVICE ?? join(__dirname, '..', 'dist', 'main.js');

export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `sns_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(DATABASE_URL);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const d = new Client({ connectionString: DATABASE_URL });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    },
  };
}

function readProc(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return ''; // exited meanwhile
  }
}

/** CPU time (user and system) a process has used, in ms (clock ticks of 10 ms). */
function processCpuMs(pid: number): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readProc(pid, 'stat').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
}

/** The same summed over the process tree. */
export function processTreeCpuMs(pid: number): number {
  return processTree(pid).reduce((sum, p) => sum + processCpuMs(p), 0);
}

/** The process and its descendants (a cluster's primary and its workers). */
export function processTree(pid: number): number[] {
  const children = readProc(pid, `task/${pid}/children`).trim().split(/\s+/).filter(Boolean).map(Number);
  return [pid, ...children.flatMap(processTree)];
}

/** A memory figure of one process (VmHWM: its peak, VmRSS: now), in MB. */
export function processMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readProc(pid, 'status'))?.[1] ?? 0) / 1024;
}

/** The same figure summed over the process tree. */
export function processTreeMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  return processTree(pid).reduce((sum, p) => sum + processMb(p, field), 0);
}

/** The peak of each process of the tree, in MB. */
export function processPeaksMb(pid: number): number[] {
  return processTree(pid).map((p) => processMb(p, 'VmHWM'));
}

export async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`service exited during start-up (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/health/ready`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('service did not start');
}

export async function startService(env: Record<string, string>, dbUrl: string, dir: string, main = SERVICE_MAIN) {
  const port = await freePort();
  const log = openSync(join(dir, `service-${port}.log`), 'w');
  const child = spawn(process.execPath, [main], {
    env: {
      PATH: process.env.PATH,
      // As the Dockerfile and `npm start` run it (runtime-flags.spec.ts keeps the three equal).
      NODE_OPTIONS: process.env.SERVICE_NODE_OPTIONS ?? SERVICE_NODE_OPTIONS,
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: dbUrl,
      ADMIN_TOKEN: ADMIN,
      RATE_LIMIT_PER_KEY: '100000000',
      RATE_LIMIT_PER_IP: '100000000',
      RATE_LIMIT_RESOLUTION_PER_IP: '100000000',
      MINT_MAINNET_SIGNER_KEY: '0x' + '11'.repeat(32),
      MINT_TESTNET_SIGNER_KEY: '0x' + '22'.repeat(32),
      CCIP_SIGNER_KEY: '0x' + '33'.repeat(32),
      // Primary-name signatures are bound to the public origin, which production requires.
      PUBLIC_URL: BENCH_PUBLIC_URL,
      ...env,
    },
    stdio: ['ignore', log, 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, child);
  return { url, child };
}

const resolver = new Interface([
  'function resolve(bytes name, bytes data)',
  'function addr(bytes32 node)',
  'function name(bytes32 node)',
]);
const CCIP_SENDER = '0x8464135c8f25da09e49bc8782676a84730c318bc';

/** What a wallet's CCIP-Read fetch asks for a name: resolve(name, addr(node)), by the GET route. */
export function ccipAddrPath(name: string): string {
  const data = resolver.encodeFunctionData('resolve', [
    dnsEncode(name),
    resolver.encodeFunctionData('addr', [namehash(name)]),
  ]);
  return `/api/v1/ccip-read/${CCIP_SENDER}/${data}.json`;
}

export const BENCH_PUBLIC_URL = 'https://bench.example';

/** What a wallet's primary-name lookup asks the gateway: resolve(<address>.addr.reverse, name(node)). */
export function ccipNamePath(address: string): string {
  const reverse = `${address.slice(2).toLowerCase()}.addr.reverse`;
  const data = resolver.encodeFunctionData('resolve', [
    dnsEncode(reverse),
    resolver.encodeFunctionData('name', [namehash(reverse)]),
  ]);
  return `/api/v1/ccip-read/${CCIP_SENDER}/${data}.json`;
}

/**
 * `count` wallets, each with a stored name `p<i>.oak.eth` resolving to it, chosen as its primary name by its
 * signature (POST /primary-names); returns their addresses.
 */
export async function choosePrimaryNames(url: string, apiKey: string, count: number): Promise<string[]> {
  const types = {
    PrimaryName: [
      { name: 'addr', type: 'address' },
      { name: 'name', type: 'string' },
      { name: 'issuedAt', type: 'uint256' },
      { name: 'service', type: 'string' },
    ],
  };
  const domain = { name: 'ENS subname service', version: '1', chainId: 1 };
  const post = async (path: string, body: object, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  };
  const addresses: string[] = [];
  for (let i = 0; i < count; i++) {
    const wallet = Wallet.createRandom();
    const name = `p${i}.oak.eth`;
    await post(
      '/api/v1/subnames',
      { parentName: 'oak.eth', label: `p${i}`, addresses: [{ coin: 60, value: wallet.address }] },
      { 'x-auth-token': apiKey },
    );
    const issuedAt = Math.floor(Date.now() / 1000);
    const message = { addr: wallet.address, name, issuedAt, service: BENCH_PUBLIC_URL };
    const signature = await wallet.signTypedData(domain, types, message);
    await post('/api/v1/primary-names', { address: wallet.address, name, issuedAt, signature });
    addresses.push(wallet.address);
  }
  return addresses;
}

/** Mint request `i` (POST): a fresh label under oak.eth. */
export function mintRequest(i: number): { path: string; body: string } {
  return { path: '/api/v1/mint', body: JSON.stringify({ label: `m${i}`, parentName: 'oak.eth', minterAddress: ETH }) };
}

/** The mainnet listing of oak.eth the mint workloads sign for (PUT /api/v1/admin/listings/mainnet/oak.eth). */
export const LISTING = {
  price: '1000000000000000',
  fee: '0',
  paymentReceiver: ETH,
  expirable: false,
  fuses: 0,
  active: true,
};
