import { Presets, SingleBar } from 'cli-progress';
import type { CliResult } from '../common/command-line';
import { type ImportOptions, reachable, readable } from './import-options';
import { batchUrl, putPolicy, sendBatch } from './batch-client';
import { EntryChecker } from './entry-checker';
import {
  countEntries,
  describeLocation,
  detectFormat,
  ImportFormat,
  ImportRecord,
  readImportFile,
} from './import-source';

/** Refusals listed with their reasons; the rest are counted, so a file of bad lines reports in bounded memory. */
export const MAX_LISTED_REFUSALS = 1000;
/** Below the batch route's 2 MB body limit, with room for the envelope. */
const MAX_CHUNK_BYTES = 2 * 1024 * 1024 - 4096;

export interface Refusal {
  line: number;
  item?: number;
  reason: string;
}

export interface ImportSummary {
  file: string;
  format: ImportFormat;
  entries: number;
  dryRun: boolean;
  /** Entries that passed validation (in a dry run, all that would be sent). */
  valid: number;
  created: number;
  updated: number;
  /** Holder policies the file's policy lines set (PUT /policies). */
  policies: number;
  /** The first MAX_LISTED_REFUSALS refusals, by line. */
  refused: Refusal[];
  /** Every refusal, listed or not. */
  refusedCount: number;
  /** Primary names the import ended by moving their name's coin-60 address (`<address> <name>`). */
  primaryNamesEnded: string[];
  /** Why sending stopped early (the key was refused); the entries not sent are among the refused. */
  stopped?: string;
}

interface Pending {
  record: ImportRecord;
  body: Record<string, unknown>;
}

export async function importFile(options: ImportOptions): Promise<ImportSummary> {
  const format = await detectFormat(options.file);
  const entries = await countEntries(options.file, format);
  const summary: ImportSummary = {
    file: options.file,
    format,
    entries,
    dryRun: options.dryRun,
    valid: 0,
    created: 0,
    updated: 0,
    policies: 0,
    refused: [],
    refusedCount: 0,
    primaryNamesEnded: [],
  };
  const bar = new SingleBar(
    {
      stream: process.stderr,
      format: `${options.dryRun ? 'checking' : 'importing'} |{bar}| {value}/{total} | created {created}, updated {updated}, refused {refused}`,
      hideCursor: true,
      // Redirected to a file or a CI log, stderr is no TTY: a plain line a second then, and the last one at the end.
      noTTYOutput: true,
      notTTYSchedule: 1000,
    },
    Presets.shades_classic,
  );
  const counts = () => ({ created: summary.created, updated: summary.updated, refused: summary.refusedCount });
  bar.start(entries, 0, counts());
  const at = (record: ImportRecord, reason: string): Refusal => ({
    line: record.line,
    ...(record.item !== undefined ? { item: record.item } : {}),
    reason,
  });
  const refuse = (record: ImportRecord, reason: string) => {
    if (summary.refusedCount++ < MAX_LISTED_REFUSALS) summary.refused.push(at(record, reason));
  };
  const url = batchUrl(options.url);

  /** Sends a chunk; on a refusal that names items, refuses those and sends the rest; splits a chunk too large. */
  const send = async (pending: Pending[]): Promise<void> => {
    if (pending.length === 0) return;
    if (summary.stopped) {
      for (const p of pending) refuse(p.record, `not sent: ${summary.stopped}`);
      return;
    }
    const outcome = await sendBatch(
      url,
      options.key,
      pending.map((p) => p.body),
    );
    if (outcome.kind === 'applied') {
      summary.created += outcome.created;
      summary.updated += outcome.updated;
      summary.primaryNamesEnded.push(...outcome.ended);
    } else if (outcome.kind === 'unauthorized') {
      summary.stopped = `the service refused the key (401: ${outcome.detail})`;
      for (const p of pending) refuse(p.record, `not sent: ${summary.stopped}`);
    } else if (outcome.status === 413 && pending.length > 1) {
      const half = Math.ceil(pending.length / 2);
      await send(pending.slice(0, half));
      await send(pending.slice(half));
    } else if (outcome.items.size > 0 && outcome.items.size < pending.length) {
      for (const [i, reason] of outcome.items) if (pending[i]) refuse(pending[i].record, `${outcome.code}: ${reason}`);
      await send(pending.filter((_, i) => !outcome.items.has(i)));
    } else {
      for (const [i, p] of pending.entries()) {
        refuse(p.record, `${outcome.code}: ${outcome.items.get(i) ?? outcome.detail}`);
      }
    }
  };

  /** A policy line, after the names before it: set, or refused with the service's reason. */
  const setPolicy = async (record: ImportRecord, policy: Record<string, unknown>) => {
    const failed = summary.stopped
      ? { status: 0, reason: `not sent: ${summary.stopped}` }
      : await putPolicy(url, options.key, policy);
    if (failed?.status === 401) summary.stopped = `the service refused the key (401: ${failed.reason})`;
    if (failed) refuse(record, failed.reason);
    else summary.policies++;
    bar.increment(1, counts());
  };

  const checker = new EntryChecker();
  let chunk: Pending[] = [];
  let chunkBytes = 0;
  const flush = async () => {
    const sending = chunk;
    chunk = [];
    chunkBytes = 0;
    await send(sending);
    bar.increment(sending.length, counts());
  };
  try {
    for await (const record of readImportFile(options.file, format)) {
      const { problem } = await checker.check(record);
      if (problem !== null) {
        refuse(record, problem);
        bar.increment(1, counts());
        continue;
      }
      summary.valid++;
      if (options.dryRun) {
        bar.increment(1, counts());
        continue;
      }
      if (record.policy) {
        await flush();
        await setPolicy(record, record.policy);
        continue;
      }
      const bytes = Buffer.byteLength(JSON.stringify(record.body)) + 1;
      if (chunk.length > 0 && (chunk.length >= options.batchSize || chunkBytes + bytes > MAX_CHUNK_BYTES)) {
        await flush();
      }
      chunk.push({ record, body: record.body! });
      chunkBytes += bytes;
    }
    await flush();
  } finally {
    bar.stop();
  }
  summary.refused.sort((a, b) => a.line - b.line || (a.item ?? 0) - (b.item ?? 0));
  return summary;
}

export function formatSummary(s: ImportSummary, url: string): string {
  const kind = s.format === 'json-array' ? 'JSON array' : 'NDJSON';
  const lines = [
    s.dryRun
      ? `dry run of ${s.file} (${kind}, ${s.entries} entries): ${s.valid} valid, ${s.refusedCount} refused; nothing was sent`
      : `${s.file} (${kind}, ${s.entries} entries) into ${url}: created ${s.created}, updated ${s.updated}, refused ${s.refusedCount}` +
        (s.policies > 0 ? `, policies set ${s.policies}` : ''),
  ];
  if (s.stopped) lines.push(`stopped: ${s.stopped}`);
  if (s.primaryNamesEnded.length > 0) {
    lines.push("primary names ended (the name's coin-60 address no longer points at the address that chose it):");
    for (const e of s.primaryNamesEnded) lines.push(`  ${e}`);
  }
  if (s.refused.length > 0) {
    lines.push('refused:');
    for (const r of s.refused) lines.push(`  ${describeLocation(r)}: ${r.reason}`);
    const more = s.refusedCount - s.refused.length;
    if (more > 0) lines.push(`  … and ${more} more refused, not listed (the first ${s.refused.length} are)`);
  }
  return lines.join('\n');
}

/** `npm run cli -- import …` (parsed by parseOptions): the summary and the exit code (1 when anything was refused). */
export async function runImport(options: ImportOptions): Promise<CliResult> {
  await readable(options.file);
  if (!options.dryRun) await reachable(options.url);
  const summary = await importFile(options);
  return {
    output: options.json ? JSON.stringify(summary, null, 2) : formatSummary(summary, options.url),
    exitCode: summary.refusedCount > 0 || summary.stopped ? 1 : 0,
  };
}
