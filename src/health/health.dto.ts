import { ApiProperty } from '@nestjs/swagger';

const EXAMPLE = {
  database: { status: 'up' },
  rateLimitStorage: { status: 'up', storage: 'redis', redis: 'up' },
};

const DOWN = { status: 'down', message: 'unreachable' };

/** The two bodies of a 503 from /health/ready, each with its status. */
export const NOT_READY_EXAMPLES = {
  database: {
    summary: 'The database does not answer within 2 s',
    value: {
      status: 'error',
      info: { rateLimitStorage: EXAMPLE.rateLimitStorage },
      error: { database: DOWN },
      details: { database: DOWN, rateLimitStorage: EXAMPLE.rateLimitStorage },
    },
  },
  shutting_down: {
    summary: 'The process is shutting down (SIGTERM): take it out of rotation',
    value: { status: 'shutting_down', info: EXAMPLE, error: {}, details: EXAMPLE },
  },
};

/** The @nestjs/terminus health report. */
export class HealthResponse {
  @ApiProperty({ enum: ['ok', 'error', 'shutting_down'], example: 'ok' }) status: string;
  @ApiProperty({ description: 'Checks that passed', example: EXAMPLE, type: 'object', additionalProperties: true })
  info: Record<string, unknown>;
  @ApiProperty({ description: 'Checks that failed', example: {}, type: 'object', additionalProperties: true })
  error: Record<string, unknown>;
  @ApiProperty({ description: 'Every check', example: EXAMPLE, type: 'object', additionalProperties: true })
  details: Record<string, unknown>;
}
