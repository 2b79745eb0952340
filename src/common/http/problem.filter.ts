import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isDatabaseBusy, isDatabaseUnavailable } from '../persistence/database-errors';
import {
  codeForStatus,
  DomainError,
  ErrorCode,
  FieldError,
  ServiceBusyError,
  ServiceUnavailableError,
} from '../errors';
import { allowedMethods } from './allowed-methods';
import { PROBLEM_CONTENT_TYPE, toProblem } from './problem';
import { requestIdOf } from './request-id';

interface Described {
  code: ErrorCode;
  detail: string;
  errors?: FieldError[];
  moreErrors?: number;
  headers?: Record<string, string>;
}

/**
 * Client errors raised by the Express stack before a handler runs (body-parser, decompression, the router's
 * parameter decoding): http-errors objects, which carry a 4xx `status` and `expose: true`.
 */
interface ExpressClientError {
  status: number;
  type?: string;
  code?: string;
  /** Bytes allowed, on entity.too.large. */
  limit?: number;
}

/** 65536 → "64 KB", 2097152 → "2 MB". */
function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${+(n / (1024 * 1024)).toFixed(1)} MB` : `${+(n / 1024).toFixed(1)} KB`;
}

function isExpressClientError(e: unknown): e is ExpressClientError {
  if (typeof e !== 'object' || e === null) return false;
  const { status, expose } = e as { status?: unknown; expose?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 && expose === true;
}

/** zlib's codes (Z_DATA_ERROR) and brotli's (ERR__ERROR_FORMAT_…): a body that claims an encoding it lacks. */
function isDecompressionError(e: { code?: unknown }): boolean {
  return typeof e.code === 'string' && (e.code.startsWith('Z_') || e.code.startsWith('ERR__'));
}

const BODY_PARSER_DETAIL: Record<string, string> = {
  'entity.parse.failed': 'The request body is not valid JSON',
  'entity.too.large': 'The request body exceeds the 64 KB limit',
  'encoding.unsupported': 'The request body has an unsupported content encoding',
  'charset.unsupported': 'The request body has an unsupported charset',
  'request.aborted': 'The request body was not received in full',
  'request.size.invalid': 'The request body length does not match Content-Length',
};

/** The one place where any thrown value becomes an RFC 9457 problem response. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    this.respond(exception, ctx.getRequest<Request>(), ctx.getResponse<Response>());
  }

  /** Also called by the Express error handler for failures before routing (body parsing). */
  respond(exception: unknown, req: Request, res: Response): void {
    const described = this.describe(exception, req);
    const body = toProblem(described.code, described.detail, requestIdOf(req), described.errors, described.moreErrors);
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(described.headers ?? {})) res.setHeader(name, value);
    res.status(body.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
  }

  private describe(e: unknown, req: Request): Described {
    if (e instanceof DomainError)
      return { code: e.code, detail: e.detail, errors: e.errors, moreErrors: e.moreErrors, headers: e.headers };
    if (e instanceof HttpException) return this.methodNotAllowed(e, req) ?? this.describeHttp(e);
    if (typeof e === 'object' && e !== null && isDecompressionError(e)) {
      return { code: 'VALIDATION_FAILED', detail: 'The request body could not be decompressed' };
    }
    if (isExpressClientError(e)) {
      const code = codeForStatus(e.status);
      if (e.type === 'entity.too.large' && typeof e.limit === 'number') {
        return { code, detail: `The request body exceeds the ${formatBytes(e.limit)} limit of this route` };
      }
      return { code, detail: BODY_PARSER_DETAIL[e.type ?? ''] ?? 'The request could not be read' };
    }
    if (isDatabaseBusy(e)) return this.describe(new ServiceBusyError(), req);
    if (isDatabaseUnavailable(e)) {
      this.logger.warn({
        msg: `database unavailable on ${req.method} ${req.path}: ${(e as Error).message}`,
        requestId: requestIdOf(req),
      });
      return this.describe(new ServiceUnavailableError(), req);
    }
    this.logger.error(
      `unhandled error on ${req.method} ${req.path} [${requestIdOf(req)}]`,
      (e as Error)?.stack ?? String(e),
    );
    return { code: 'INTERNAL', detail: 'An unexpected error occurred' };
  }

  /** The router's 404 for a path that other methods serve: 405 naming them in Allow. */
  private methodNotAllowed(e: HttpException, req: Request): Described | undefined {
    if (e.getStatus() !== HttpStatus.NOT_FOUND || !e.message.startsWith('Cannot ')) return undefined;
    const allowed = allowedMethods(req);
    if (allowed.length === 0) return undefined;
    const allow = allowed.join(', ');
    return {
      code: 'METHOD_NOT_ALLOWED',
      detail: `${req.method} is not served at ${req.path}; it takes ${allow}`,
      headers: { Allow: allow },
    };
  }

  private describeHttp(e: HttpException): Described {
    const status = e.getStatus();
    const code = codeForStatus(status);
    const response = e.getResponse();
    let detail = typeof response === 'string' ? response : e.message;
    if (typeof response === 'object' && response !== null && 'message' in response) {
      const message = (response as { message: unknown }).message;
      detail = Array.isArray(message) ? message.join('; ') : String(message);
    }
    if (status === HttpStatus.NOT_FOUND && detail.startsWith('Cannot ')) detail = `No route: ${detail.slice(7)}`;
    if (status >= 500) detail = 'An unexpected error occurred';
    return { code, detail };
  }
}
