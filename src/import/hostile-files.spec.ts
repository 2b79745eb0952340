import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_LINE_BYTES } from './file-lines';
import { ImportSummary, MAX_LISTED_REFUSALS, runImport } from './import-command';
import { parseOptions } from './import-options';
import { MAX_ARRAY_FILE_BYTES } from './import-source';

const dir = mkdtempSync(join(tmpdir(), 'hostile-import-'));
const entry = (label: string, text = 'ok') =>
  JSON.stringify({ parentName: 'oak.eth', label, texts: [{ key: 'description', value: text }] });

/** A dry run of `file`: the exit code, the printed summary and the JSON summary. */
async function dryRun(name: string, content: Buffer | string): Promise<{ exitCode: number; summary: ImportSummary }> {
  const file = join(dir, name);
  writeFileSync(file, content);
  const { output, exitCode } = await runImport(parseOptions([file, '--dry-run', '--json']));
  return { exitCode, summary: JSON.parse(output) as ImportSummary };
}

describe('hostile import files: one clear refusal, bounded memory', () => {
  it('refuses a 600 MB JSON array by its size, naming the bound and NDJSON, without reading it', async () => {
    const file = join(dir, 'huge.json');
    writeFileSync(file, '[');
    // Sparse: 600 MB on the file system's word, no disk; reading it whole ended in `Invalid string length`.
    truncateSync(file, 600 * 1024 * 1024);
    const { output, exitCode } = await runImport(parseOptions([file, '--dry-run', '--json']));
    const summary = JSON.parse(output) as ImportSummary;
    expect([exitCode, summary.format, summary.refusedCount, summary.valid]).toEqual([1, 'json-array', 1, 0]);
    expect(summary.refused).toEqual([
      {
        line: 1,
        reason:
          `the file is a JSON array of ${600 * 1024 * 1024} bytes; a JSON array is read whole and may be at most ` +
          `${MAX_ARRAY_FILE_BYTES} bytes: write it as NDJSON, one entry a line (jq -c '.[]' FILE > FILE.ndjson), ` +
          'which is read line by line whatever its size',
      },
    ]);
  });

  it(`lists the first ${MAX_LISTED_REFUSALS} of 5,000 bad lines and counts the rest`, async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `{not json ${i}`);
    const { exitCode, summary } = await dryRun('bad.ndjson', [entry('good'), ...lines].join('\n'));
    expect([exitCode, summary.valid, summary.refusedCount]).toEqual([1, 1, 5000]);
    expect(summary.refused).toHaveLength(MAX_LISTED_REFUSALS);
    expect(summary.refused[0].line).toBe(2);
    expect(summary.refused[MAX_LISTED_REFUSALS - 1].line).toBe(MAX_LISTED_REFUSALS + 1);
    const text = await runImport(parseOptions([join(dir, 'bad.ndjson'), '--dry-run']));
    expect(text.output.split('\n')[0]).toMatch(/: 1 valid, 5000 refused; nothing was sent$/);
    expect(text.output.split('\n').at(-1)).toBe(`  … and 4000 more refused, not listed (the first 1000 are)`);
  });

  it('refuses a line of invalid UTF-8 by its number rather than storing U+FFFD', async () => {
    const bad = Buffer.concat([Buffer.from(entry('b', 'caf')), Buffer.from([0xc3, 0x28]), Buffer.from('"}]}')]);
    const ndjson = Buffer.concat([Buffer.from(`${entry('a')}\r\n\n`), bad, Buffer.from(`\n${entry('c', 'café')}\n`)]);
    const { exitCode, summary } = await dryRun('utf8.ndjson', ndjson);
    expect([exitCode, summary.entries, summary.valid]).toEqual([1, 3, 2]);
    expect(summary.refused).toEqual([{ line: 3, reason: 'is not valid UTF-8' }]);
    const array = Buffer.concat([Buffer.from(`[\n${entry('a')},\n`), bad, Buffer.from(`\n]\n`)]);
    const asArray = await dryRun('utf8.json', array);
    expect(asArray.summary.refused).toEqual([{ line: 3, reason: 'is not valid UTF-8' }]);
    expect(asArray.summary.valid).toBe(0);
  });

  it('refuses a line longer than any entry by its number, and reads the next', async () => {
    const long = `{"label":"${'x'.repeat(MAX_LINE_BYTES)}"}`;
    const { summary } = await dryRun('long.ndjson', `${entry('a')}\n${long}\n${entry('b')}`);
    expect(summary.valid).toBe(2);
    expect(summary.refused).toEqual([
      { line: 2, reason: `is longer than ${MAX_LINE_BYTES} bytes, more than any entry can be` },
    ]);
  });
});
