import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A migration may be stamped up to a day ahead of the clock (time zones); later, a new one would sort before it. */
export const FUTURE_ALLOWANCE_MS = 86_400_000;

const FILE = /^(\d+)-([A-Za-z][A-Za-z0-9]*)\.ts$/;

export interface MigrationFile {
  file: string;
  text: string;
}

/**
 * What is wrong with a migrations folder, in file-name order: names not `<timestamp>-<Name>.ts`, timestamps
 * not strictly increasing, a class or `name` other than `<Name><timestamp>`, a timestamp past now + one day.
 */
export function migrationOrderProblems(files: readonly MigrationFile[], nowMs: number): string[] {
  const problems: string[] = [];
  let previous: { file: string; timestamp: number } | undefined;
  for (const { file, text } of [...files].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))) {
    const match = FILE.exec(file);
    if (!match) {
      problems.push(`${file}: not named <timestamp>-<Name>.ts`);
      continue;
    }
    const timestamp = Number(match[1]);
    const expected = `${match[2]}${match[1]}`;
    if (previous && timestamp <= previous.timestamp) {
      problems.push(`${file}: timestamp not after ${previous.file}'s`);
    }
    if (timestamp > nowMs + FUTURE_ALLOWANCE_MS) problems.push(`${file}: timestamp in the future`);
    if (!new RegExp(`export class ${expected}\\b`).test(text)) problems.push(`${file}: class is not ${expected}`);
    if (!text.includes(`name = '${expected}'`)) problems.push(`${file}: name is not '${expected}'`);
    previous = { file, timestamp };
  }
  return problems;
}

/** The migration files of src/database/migrations (sources, not declarations or maps). */
export function readMigrationFiles(dir = join(__dirname, 'migrations')): MigrationFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }));
}

// `npm run migration:order` (CI): prints each problem and fails when there is one.
if (require.main === module) {
  const problems = migrationOrderProblems(readMigrationFiles(), Date.now());
  for (const p of problems) console.error(p);
  console.log(problems.length ? `${problems.length} migration problem(s)` : 'migrations in order');
  process.exitCode = problems.length ? 1 : 0;
}
