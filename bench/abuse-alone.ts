/**
 * The abuse section of npm run bench alone, on one process and a fresh database:
 * `npx ts-node --transpile-only bench/abuse-alone.ts [NAME=VALUE …]`, the arguments added to the service's
 * environment (BATCHES_IN_FLIGHT_PER_KEY=1000, for instance, to see a key with no bound on its batches).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureAbuse, printAbuse } from './abuse';
import { ADMIN, freshDatabase, startService } from './service';

async function main(): Promise<void> {
  const env = Object.fromEntries(
    process.argv.slice(2).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]),
  );
  const db = await freshDatabase();
  const { url, child } = await startService(env, db.url, mkdtempSync(join(tmpdir(), 'sns-abuse-')));
  try {
    const issued = await fetch(`${url}/api/v1/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN },
      body: JSON.stringify({ name: 'abuse', parentNames: ['oak.eth'], quota: 2_000_000_000 }),
    });
    const { key } = (await issued.json()) as { key: string };
    printAbuse(await measureAbuse(url, key, child.pid!));
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await db.drop();
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
