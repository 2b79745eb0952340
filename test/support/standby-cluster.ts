import { execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './service-process';

const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** A throwaway PostgreSQL primary and a streaming standby made from it (`pg_basebackup -R`), on loopback. */
export interface StandbyCluster {
  primaryUrl: string;
  standbyUrl: string;
  query(url: string, sql: string): Promise<Record<string, unknown>[]>;
  stopStandby(): void;
  destroy(): void;
}

/** PostgreSQL refuses to run as root: the tools then run as the postgres user. */
function run(tool: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(BIN, tool), ...args]]
    : [join(BIN, tool), args];
  execFileSync(cmd, argv, { stdio: 'pipe', timeout: 30_000 });
}

export async function startStandbyCluster(): Promise<StandbyCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'standby-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const primary = join(dir, 'primary');
  const standby = join(dir, 'standby');
  const settings = (port: number) =>
    `\nport = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir}'\n` +
    `wal_level = replica\nmax_wal_senders = 4\nfsync = off\nhot_standby = on\n`;
  run('initdb', ['-D', primary, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  appendFileSync(join(primary, 'postgresql.conf'), settings(primaryPort));
  run('pg_ctl', ['-D', primary, '-l', join(dir, 'primary.log'), '-w', 'start']);
  const stopStandby = () => run('pg_ctl', ['-D', standby, '-m', 'immediate', 'stop']);
  const destroy = () => {
    for (const data of [standby, primary]) {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        // not running
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standby, '-R']);
    appendFileSync(join(standby, 'postgresql.conf'), settings(standbyPort));
    run('pg_ctl', ['-D', standby, '-l', join(dir, 'standby.log'), '-w', 'start']);
  } catch (e) {
    destroy();
    throw e;
  }
  const query = async (url: string, sql: string) => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    standbyUrl: `postgres://postgres@127.0.0.1:${standbyPort}/postgres`,
    query,
    stopStandby,
    destroy,
  };
}
