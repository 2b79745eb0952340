import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode } from '../errors';
import { PROBLEM_CONTENT_TYPE, toProblem } from './problem';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

function describe(code: string | undefined): { code: ErrorCode; detail: string } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { code: 'HEADERS_TOO_LARGE', detail: 'The request line and headers exceed the 16 KB limit' };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { code: 'REQUEST_TIMEOUT', detail: 'The request was not received in time' };
  }
  return { code: 'VALIDATION_FAILED', detail: 'The request is not valid HTTP/1.1 (request line, target or headers)' };
}

/**
 * Requests that Node's HTTP parser refuses before Express sees them (a space or control byte in the target,
 * headers over 16 KB, a bad header) get the same problem JSON as any other refusal, instead of a bare status.
 */
export function answerMalformedRequests(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { code, detail } = describe(err.code);
    const problem = toProblem(code, detail, randomUUID());
    const body = JSON.stringify(problem);
    socket.end(
      `HTTP/1.1 ${problem.status} ${REASONS[problem.status]}\r\n` +
        `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${problem.requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
