import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODES, ErrorCode, FieldError, MAX_FIELD_ERRORS } from '../errors';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export class FieldErrorDto implements FieldError {
  @ApiProperty({ example: 'texts[1].key' }) field: string;
  @ApiProperty({ example: 'must be an ENSIP-5 or ENSIP-18 key, or a reverse-dot service key' }) message: string;
}

/** RFC 9457 problem details, the body of every error response. */
export class ProblemDto {
  @ApiProperty({ example: 'https://docs.ens-subnames.dev/problems/validation-failed' }) type: string;
  @ApiProperty({ example: 'Validation failed' }) title: string;
  @ApiProperty({ example: 400 }) status: number;
  @ApiProperty({ example: 'texts[1].key: must be an ENSIP-5 or ENSIP-18 key, or a reverse-dot service key' })
  detail: string;
  @ApiProperty({ example: 'VALIDATION_FAILED', enum: Object.keys(ERROR_CODES) }) code: string;
  @ApiPropertyOptional({
    type: [FieldErrorDto],
    maxItems: MAX_FIELD_ERRORS,
    description: `One entry per bad field, the first ${MAX_FIELD_ERRORS} of them`,
  })
  errors?: FieldErrorDto[];
  @ApiPropertyOptional({
    example: 2400,
    description: `Present when more than ${MAX_FIELD_ERRORS} fields were bad: how many errors[] leaves out`,
  })
  moreErrors?: number;
  @ApiProperty({ example: '3f0c2b9e-5a1d-4c55-9a53-0d0e7f1b2c3d' }) requestId: string;
}

export function problemType(code: ErrorCode): string {
  return `https://docs.ens-subnames.dev/problems/${code.toLowerCase().replace(/_/g, '-')}`;
}

export function toProblem(
  code: ErrorCode,
  detail: string,
  requestId: string,
  errors?: FieldError[],
  moreErrors = 0,
): ProblemDto & { status: number } {
  const { status, title } = ERROR_CODES[code];
  const listed = errors && errors.length > MAX_FIELD_ERRORS ? errors.slice(0, MAX_FIELD_ERRORS) : errors;
  const more = moreErrors + (errors?.length ?? 0) - (listed?.length ?? 0);
  return {
    type: problemType(code),
    title,
    status,
    detail,
    code,
    ...(listed ? { errors: listed } : {}),
    ...(more > 0 ? { moreErrors: more } : {}),
    requestId,
  };
}
