import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { logChild } from './suite-log';

/** The summary `import … --json` prints. */
export interface ImportSummary {
  entries: number;
  valid: number;
  created: number;
  updated: number;
  /** Holder policies set from policy lines. */
  policies?: number;
  /** The first MAX_LISTED_REFUSALS refusals; refusedCount counts them all. */
  refused: { line: number; item?: number; reason: string }[];
  refusedCount: number;
  stopped?: string;
}

/** `node dist/cli import …`, as `npm run cli -- import …` runs it. */
export function importCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = logChild(
      'cli',
      spawn(process.execPath, [join(__dirname, '..', '..', 'dist', 'cli.js'), 'import', ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `import … --json`, its summary parsed. */
export async function importJson(args: string[]): Promise<{ code: number | null; summary: ImportSummary }> {
  const { code, stdout, stderr } = await importCli([...args, '--json']);
  try {
    return { code, summary: JSON.parse(stdout) as ImportSummary };
  } catch {
    throw new Error(`cli printed no JSON summary (exit ${code}):\n${stdout}\n${stderr}`);
  }
}
