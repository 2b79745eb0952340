import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, ErrorCode } from '../errors';
import { PROBLEM_CONTENT_TYPE } from './problem';
import { problemExample } from './openapi';

interface Media {
  example?: { status?: number; code?: string };
}
type Operation = { responses: Record<string, { content?: Record<string, Media> }> };
const document = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};

/** Every documented problem response of the committed document: operation, status, example. */
const problems = Object.entries(document.paths).flatMap(([path, operations]) =>
  Object.entries(operations).flatMap(([method, op]) =>
    Object.entries(op.responses)
      // Problem responses (readiness's 503 is its health report, not a problem).
      .filter(([status, response]) => Number(status) >= 400 && response.content?.[PROBLEM_CONTENT_TYPE])
      .map(([status, response]) => ({
        op: `${method.toUpperCase()} ${path}`,
        status: Number(status),
        example: response.content?.[PROBLEM_CONTENT_TYPE]?.example,
      })),
  ),
);

describe('OpenAPI problem examples', () => {
  it('documents problem responses at all (the document is read)', () => {
    expect(problems.length).toBeGreaterThan(100);
  });

  it('gives every error response an example whose status is its own and whose code has that status', () => {
    const wrong = problems.filter(
      (p) => p.example?.status !== p.status || ERROR_CODES[p.example.code as ErrorCode]?.status !== p.status,
    );
    expect(wrong).toEqual([]);
  });

  it("gives the error responses that are not problems (readiness's 503) examples too", () => {
    const ready = document.paths['/health/ready'].get.responses['503'].content?.['application/json'] as {
      examples?: Record<string, { value: { status: string } }>;
    };
    expect(Object.values(ready.examples ?? {}).map((e) => e.value.status)).toEqual(['error', 'shutting_down']);
    const others = Object.values(document.paths)
      .flatMap((operations) => Object.values(operations))
      .flatMap((op) => Object.entries(op.responses))
      .filter(([status, response]) => Number(status) >= 400 && !response.content?.[PROBLEM_CONTENT_TYPE]);
    expect(others).toHaveLength(1);
  });

  it('gives the error responses of one operation different codes', () => {
    const codesByOp = new Map<string, (string | undefined)[]>();
    for (const p of problems) codesByOp.set(p.op, [...(codesByOp.get(p.op) ?? []), p.example?.code]);
    const repeated = [...codesByOp].filter(([, codes]) => new Set(codes).size !== codes.length);
    expect(repeated).toEqual([]);
  });

  it('takes the code a description starts with, else the one of its status', () => {
    expect(problemExample(429, 'RATE_LIMITED: over the rate limit')).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      detail: 'over the rate limit',
    });
    expect(problemExample(403, 'FORBIDDEN_PARENT naming each parent')).toMatchObject({ code: 'FORBIDDEN_PARENT' });
    expect(problemExample(401, 'missing key')).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      detail: 'missing key',
    });
    expect(problemExample(503, 'SUBNAME_NOT_FOUND oddly')).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  });
});
