import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ProblemDto } from './problem';

/** Documents problem responses for the given statuses in one line. */
export function ApiProblems(...entries: [status: number, description: string][]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...entries.map(([status, description]) =>
      ApiResponse({
        status,
        description,
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDto' } } },
      }),
    ),
    ApiResponse({ status: 500, description: 'Unexpected error (no internals in the body)', type: ProblemDto }),
  );
}
