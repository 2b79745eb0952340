import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';

/** The longest line read: a batch body is at most 2 MB, so no entry the service takes is longer. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** One line of a file: its text, or why it cannot be read (invalid UTF-8, too long). */
export interface FileLine {
  /** 1-based. */
  line: number;
  text?: string;
  problem?: string;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * The lines of a file read as bytes, each decoded as strict UTF-8 (never replaced by U+FFFD): an invalid line or
 * one over `maxLineBytes` comes back as a problem with its number, the longer line skipped without being held.
 */
export async function* fileLines(path: string, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<FileLine> {
  let parts: Buffer[] = [];
  let length = 0;
  let overlong = false;
  let line = 0;
  const take = (piece: Buffer) => {
    if (overlong || piece.length === 0) return;
    if (length + piece.length > maxLineBytes) {
      overlong = true;
      parts = [];
      return;
    }
    parts.push(piece);
    length += piece.length;
  };
  const finish = (): FileLine => {
    line++;
    let bytes = Buffer.concat(parts, length);
    const wasOverlong = overlong;
    parts = [];
    length = 0;
    overlong = false;
    if (wasOverlong) return { line, problem: `is longer than ${maxLineBytes} bytes, more than any entry can be` };
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    if (!isUtf8(bytes)) return { line, problem: 'is not valid UTF-8' };
    const text = bytes.toString('utf8');
    return { line, text: line === 1 ? text.replace(/^\uFEFF/, '') : text };
  };
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      take(chunk.subarray(start, nl));
      yield finish();
      start = nl + 1;
    }
    take(chunk.subarray(start));
  }
  if (length > 0 || overlong) yield finish();
}

/** The 1-based line of the first invalid UTF-8 in `bytes`, or null when all of it is valid. */
export function firstInvalidUtf8Line(bytes: Buffer): number | null {
  if (isUtf8(bytes)) return null;
  let line = 1;
  for (let start = 0; start <= bytes.length; line++) {
    const nl = bytes.indexOf(NEWLINE, start);
    const end = nl === -1 ? bytes.length : nl;
    if (!isUtf8(bytes.subarray(start, end))) return line;
    if (nl === -1) break;
    start = nl + 1;
  }
  // A sequence cut by a newline is invalid on one side of it, so a line was found above.
  return line;
}
