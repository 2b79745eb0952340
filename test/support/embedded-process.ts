import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { logChild } from './suite-log';

export interface EmbeddedProcess {
  url: string;
  stop(): Promise<void>;
}

// PGlite loads its WebAssembly through dynamic import, which jest's VM sandbox refuses: run it in its own process.
const SCRIPT = `
const { startEmbeddedDatabase } = require(${JSON.stringify(join(__dirname, '..', '..', 'dist', 'database', 'embedded-database.js'))});
startEmbeddedDatabase(process.argv[1] || undefined).then((db) => {
  console.log('URL ' + db.url);
  const stop = () => db.stop().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  // The parent closed our stdin (it exited, even by a crash): no database outlives its test run.
  process.stdin.on('end', stop).resume();
});`;

/** Runs the built embedded database (dist/) in a child process; `dataDir` undefined keeps it in memory. */
export async function startEmbeddedProcess(dataDir?: string): Promise<EmbeddedProcess> {
  const child = logChild(
    'embedded-database',
    spawn(process.execPath, ['-e', SCRIPT, dataDir ?? ''], { stdio: 'pipe' }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /URL (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`embedded database exited with ${code}`)));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
