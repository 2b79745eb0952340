/**
 * One build of the service for a paired measurement (bench:compare, bench:profile): started as production starts
 * it on a fresh database, with the 2,000 stored names and the mint listing the workloads read, and those
 * workloads (create, read, resolution, mint) with the CPU time of its processes.
 */
import { httpLoad, Load, withCpu, Workload } from './load';
import {
  ADMIN,
  ccipAddrPath,
  ETH,
  freshDatabase,
  LISTING,
  mintRequest,
  processTreeCpuMs,
  startService,
} from './service';

export const NAMES = 2000;
const BATCH = 100;

async function send(
  url: string,
  method: 'POST' | 'PUT',
  path: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** One build running on its own database, with the names and listing the workloads read, and its workloads. */
export async function side(main: string, dir: string, env: Record<string, string> = {}) {
  const db = await freshDatabase();
  const { url, child } = await startService({ WORKERS: '1', ...env }, db.url, dir, main);
  const admin = { 'x-admin-token': ADMIN };
  const { key } = (await send(url, 'POST', '/api/v1/admin/api-keys', admin, {
    name: 'compare',
    parentNames: ['oak.eth'],
    quota: 2_000_000_000,
  })) as { key: string };
  const keyed = { 'x-auth-token': key };
  const subname = (label: string) => ({
    parentName: 'oak.eth',
    label,
    texts: [{ key: 'url', value: `https://${label}.example` }],
    addresses: [{ coin: 60, value: ETH }],
    owner: ETH,
  });
  for (let b = 0; b < NAMES / BATCH; b++) {
    const items = Array.from({ length: BATCH }, (_, k) => subname(`c${b * BATCH + k}`));
    await send(url, 'POST', '/api/v1/subnames/batch', keyed, { items });
  }
  await send(url, 'PUT', '/api/v1/admin/listings/mainnet/oak.eth', admin, LISTING);
  const ccipPaths = Array.from({ length: NAMES }, (_, i) => ccipAddrPath(`c${i}.oak.eth`));
  const workloads: Workload[] = [
    {
      name: 'POST /subnames (create)',
      url,
      method: 'POST',
      headers: keyed,
      next: (i) => ({ path: '/api/v1/subnames', body: JSON.stringify(subname(`n${i}`)) }),
    },
    { name: 'GET /subnames/{fullName}', url, next: (i) => ({ path: `/api/v1/subnames/c${i % NAMES}.oak.eth` }) },
    { name: 'GET /ccip-read (addr of a stored name)', url, next: (i) => ({ path: ccipPaths[i % NAMES] }) },
    {
      name: 'POST /mint (signed)',
      url,
      method: 'POST',
      next: mintRequest,
    },
  ];
  const loads: Load[] = workloads.map((w) => withCpu(httpLoad(w), () => processTreeCpuMs(child.pid!)));
  const stop = async () => {
    await new Promise<void>((r) => {
      child.once('exit', () => r());
      child.kill('SIGTERM');
    });
    await db.drop();
  };
  return { loads, stop, pid: child.pid! };
}
