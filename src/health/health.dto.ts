import { ApiProperty } from '@nestjs/swagger';

const EXAMPLE = {
  database: { status: 'up' },
  rateLimitStorage: { status: 'up', storage: 'redis', redis: 'up' },
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
