import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, isISO8601, IsOptional, IsString, Length, Max, Min, ValidateIf } from 'class-validator';
import { canonical, IsEnsNameList } from '../../common/validation/validators';
import type { ApiKeyEntity } from '../../auth/api-key.entity';
import type { QuotaView } from '../../quota/quota.service';

const MAX_QUOTA = 2147483647;
const MAX_PARENT_NAMES = 100;

/** An ISO 8601 date-time in the future, handed over as a Date: a key that expires at issue is a mistake. */
const IsFutureDate = () =>
  canonical('isFutureDate', (raw) => {
    const date = typeof raw === 'string' && isISO8601(raw, { strict: true }) ? new Date(raw) : undefined;
    if (!date || Number.isNaN(date.getTime())) throw new Error('must be a valid ISO 8601 date string');
    if (date.getTime() <= Date.now()) throw new Error('must be in the future (null never expires)');
    return date;
  });

export class CreateApiKeyDto {
  @ApiProperty({ example: 'wallet-team', minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({
    example: ['oak.eth'],
    description: 'Parent names the key may write under (and every name below them)',
  })
  @IsEnsNameList(2, [1, MAX_PARENT_NAMES], { length: [1, 255] })
  parentNames: string[];

  @ApiPropertyOptional({ example: 2000, description: 'Creations allowed; default SUBNAME_QUOTA_DEFAULT' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_QUOTA)
  quota?: number;

  @ApiPropertyOptional({
    example: '2027-12-31T00:00:00Z',
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'ISO 8601; null never expires',
  })
  @IsOptional()
  @IsFutureDate()
  expiresAt?: Date | null;
}

export class UpdateApiKeyDto {
  @ApiPropertyOptional({ example: 'wallet-team' })
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({ example: ['oak.eth', 'pine.eth'] })
  @ValidateIf((_, v) => v !== undefined)
  @IsEnsNameList(2, [1, MAX_PARENT_NAMES], { length: [1, 255] })
  parentNames?: string[];

  @ApiPropertyOptional({ example: 5000 })
  @ValidateIf((_, v) => v !== undefined)
  @IsInt()
  @Min(0)
  @Max(MAX_QUOTA)
  quota?: number;

  @ApiPropertyOptional({ example: null, nullable: true, type: String, format: 'date-time' })
  @IsOptional()
  @IsFutureDate()
  expiresAt?: Date | null;
}

export const MAX_GRACE_SECONDS = 86_400;

/** Body of POST /admin/api-keys/{id}/rotate. */
export class RotateApiKeyDto {
  @ApiPropertyOptional({
    type: 'integer',
    example: 3600,
    minimum: 0,
    maximum: MAX_GRACE_SECONDS,
    default: 0,
    description: 'Seconds the old secret keeps working; 0 refuses it at once',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_GRACE_SECONDS)
  graceSeconds?: number;
}

export class ApiKeyResponse {
  @ApiProperty({ example: '0b5c1c0e-9a57-4d43-8f43-3c1f0c7e2a11' }) id: string;
  @ApiProperty({ example: 'wallet-team' }) name: string;
  @ApiProperty({ example: 'sns_Q2hLr8xv' }) keyPrefix: string;
  @ApiProperty({ example: ['oak.eth'] }) parentNames: string[];
  @ApiProperty({ example: 2000 }) quota: number;
  @ApiProperty({ example: 17 }) used: number;
  @ApiProperty({ example: null, nullable: true, type: String, format: 'date-time' }) expiresAt: string | null;
  @ApiProperty({ example: null, nullable: true, type: String, format: 'date-time' }) revokedAt: string | null;
  @ApiProperty({ example: '2026-11-22T10:00:00.000Z', format: 'date-time' }) createdAt: string;
}

export function toApiKeyResponse(key: ApiKeyEntity, quota: QuotaView): ApiKeyResponse {
  return {
    id: key.id,
    name: key.name,
    keyPrefix: key.keyPrefix,
    parentNames: key.parentNames,
    quota: quota.limit,
    used: quota.used,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    createdAt: key.createdAt.toISOString(),
  };
}

export class CreatedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({
    example: 'sns_Q2hLr8xvT1m0b3K9Yq7cW4pZs2aE6uN5dR8fG1hJ0kM',
    description: 'Shown only in this response',
  })
  key: string;
}
