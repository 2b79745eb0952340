import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE } from './problem';

/** One problem response: RFC 9457 body under application/problem+json. */
export function ApiProblem(status: number, description: string): MethodDecorator & ClassDecorator {
  return ApiResponse({
    status,
    description,
    content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/ProblemDto' } } },
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
