import { open, readFile, stat } from 'node:fs/promises';
import { fileLines, firstInvalidUtf8Line } from './file-lines';
import { fromNameStone, isNameStoneEntry } from './namestone';

/** A JSON array is parsed whole: past this size it is refused with a way out rather than exhausting memory. */
export const MAX_ARRAY_FILE_BYTES = 64 * 1024 * 1024;

function arrayTooLarge(size: number): string {
  return (
    `the file is a JSON array of ${size} bytes; a JSON array is read whole and may be at most ` +
    `${MAX_ARRAY_FILE_BYTES} bytes: write it as NDJSON, one entry a line (jq -c '.[]' FILE > FILE.ndjson), ` +
    'which is read line by line whatever its size'
  );
}

/** One entry of an import file, where it stands, and the POST /subnames body it becomes (or why it cannot). */
export interface ImportRecord {
  /** 1-based line of the file where the entry starts. */
  line: number;
  /** 1-based position in a JSON array file; absent for NDJSON. */
  item?: number;
  body?: Record<string, unknown>;
  /** An export's policy line (`{"policy": {parentName, …}}`): the parent's holder policy, set by PUT /policies. */
  policy?: Record<string, unknown>;
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
  const { policy, ...rest } = value as { policy?: unknown };
  if (policy !== undefined && Object.keys(rest).length === 0) {
    const ok = typeof policy === 'object' && policy !== null && !Array.isArray(policy);
    return ok ? { ...at, policy: policy as Record<string, unknown> } : { ...at, problem: 'policy: must be an object' };
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

/** The whole text of a JSON array file, or why it is not read (too large, invalid UTF-8). */
async function arrayText(path: string): Promise<{ text: string } | { problem: ImportRecord }> {
  const { size } = await stat(path);
  if (size > MAX_ARRAY_FILE_BYTES) return { problem: { line: 1, problem: arrayTooLarge(size) } };
  const bytes = await readFile(path);
  const bad = firstInvalidUtf8Line(bytes);
  if (bad !== null) return { problem: { line: bad, problem: 'is not valid UTF-8' } };
  return { text: bytes.toString('utf8').replace(/^\uFEFF/, '') };
}

async function* readJsonArray(path: string): AsyncGenerator<ImportRecord> {
  const read = await arrayText(path);
  if ('problem' in read) {
    yield read.problem;
    return;
  }
  const { text } = read;
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
  for await (const { line, text, problem } of fileLines(path)) {
    if (problem !== undefined || text === undefined) {
      yield { line, problem: problem ?? 'cannot be read' };
      continue;
    }
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
      const read = await arrayText(path);
      if ('problem' in read) return 1;
      const parsed: unknown = JSON.parse(read.text);
      return Array.isArray(parsed) ? parsed.length : 1;
    } catch {
      return 1;
    }
  }
  let n = 0;
  for await (const { text } of fileLines(path)) if (text === undefined || text.trim() !== '') n++;
  return n;
}
