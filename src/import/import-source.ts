import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fromNameStone, isNameStoneEntry } from './namestone';

/** One entry of an import file, where it stands, and the POST /subnames body it becomes (or why it cannot). */
export interface ImportRecord {
  /** 1-based line of the file where the entry starts. */
  line: number;
  /** 1-based position in a JSON array file; absent for NDJSON. */
  item?: number;
  body?: Record<string, unknown>;
  problem?: string;
}

export type ImportFormat = 'ndjson' | 'json-array';

export function describeLocation(r: Pick<ImportRecord, 'line' | 'item'>): string {
  return r.item === undefined ? `line ${r.line}` : `item ${r.item} (line ${r.line})`;
}

function toRecord(value: unknown, at: Pick<ImportRecord, 'line' | 'item'>): ImportRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ...at, problem: 'is not a JSON object' };
  }
  return { ...at, body: isNameStoneEntry(value) ? fromNameStone(value) : (value as Record<string, unknown>) };
}

/** A file whose first character (after white space) is `[` is one JSON array; anything else is NDJSON. */
export async function detectFormat(path: string): Promise<ImportFormat> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    for (let position = 0; ;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) return 'ndjson';
      const text = buffer
        .subarray(0, bytesRead)
        .toString('utf8')
        .replace(/^\uFEFF/, '');
      const first = /\S/.exec(text);
      if (first) return first[0] === '[' ? 'json-array' : 'ndjson';
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/** The 1-based line on which each top-level element of a JSON array text starts. */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let expectElement = false;
  for (const ch of text) {
    if (ch === '\n') line++;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (/\s/.test(ch)) continue;
    if (depth === 1 && expectElement && ch !== ']') {
      lines.push(line);
      expectElement = false;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 1) expectElement = true;
  }
  return lines;
}

async function* readJsonArray(path: string): AsyncGenerator<ImportRecord> {
  const text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    yield { line: 1, problem: `the file is not valid JSON (${(e as Error).message})` };
    return;
  }
  if (!Array.isArray(parsed)) {
    yield { line: 1, problem: 'the file is not a JSON array' };
    return;
  }
  const lines = arrayElementLines(text);
  for (const [i, value] of parsed.entries()) yield toRecord(value, { line: lines[i] ?? 1, item: i + 1 });
}

async function* readNdjson(path: string): AsyncGenerator<ImportRecord> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      yield { line, problem: `is not valid JSON (${(e as Error).message})` };
      continue;
    }
    yield toRecord(value, { line });
  }
}

/** The entries of an import file, in file order; NDJSON is streamed, a JSON array is read whole. */
export function readImportFile(path: string, format: ImportFormat): AsyncGenerator<ImportRecord> {
  return format === 'json-array' ? readJsonArray(path) : readNdjson(path);
}

/** How many entries the file holds, for the progress bar: a quick pass that parses nothing. */
export async function countEntries(path: string, format: ImportFormat): Promise<number> {
  if (format === 'json-array') {
    try {
      const parsed: unknown = JSON.parse((await readFile(path, 'utf8')).replace(/^\uFEFF/, ''));
      return Array.isArray(parsed) ? parsed.length : 1;
    } catch {
      return 1;
    }
  }
  let n = 0;
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  for await (const raw of lines) if (raw.trim() !== '') n++;
  return n;
}
