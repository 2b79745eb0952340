import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { codeForStatus, ERROR_CODES, ErrorCode } from '../errors';
import { PROBLEM_CONTENT_TYPE, toProblem } from './problem';

/** A problem body for the example: the code the description starts with (when it is one of this status). */
export function problemExample(status: number, description: string): ReturnType<typeof toProblem> {
  const named = /^[A-Z_]+\b/.exec(description)?.[0] as ErrorCode | undefined;
  const code = named && ERROR_CODES[named]?.status === status ? named : codeForStatus(status);
  const detail = named === code ? description.slice(code.length).replace(/^[:\s]+/, '') : description;
  return toProblem(code, detail || ERROR_CODES[code].title, '3f0c2b9e-5a1d-4c55-9a53-0d0e7f1b2c3d');
}

/** One problem response: RFC 9457 body under application/problem+json, with an example of its own code. */
export function ApiProblem(status: number, description: string): MethodDecorator & ClassDecorator {
  return ApiResponse({
    status,
    description,
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: { $ref: '#/components/schemas/ProblemDto' },
        example: problemExample(status, description),
      },
    },
  });
}

/**
 * Documents problem responses for the given statuses, plus those any route can answer:
 * 429 (rate limit), 500 (a bug; no internals in the body) and 503 (database unreachable).
 */
export function ApiProblems(...entries: [status: number, description: string][]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...entries.map(([status, description]) => ApiProblem(status, description)),
    ApiProblem(429, 'RATE_LIMITED: over the rate limit; see Retry-After'),
    ApiProblem(500, 'INTERNAL: unexpected error (no internals in the body)'),
    ApiProblem(503, 'SERVICE_UNAVAILABLE: the database is unreachable; see Retry-After'),
  );
}
