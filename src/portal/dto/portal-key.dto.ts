import { ApiProperty, PickType } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { ApiKeyResponse, CreateApiKeyDto, toApiKeyResponse } from '../../admin/dto/api-key.dto';
import type { ApiKeyEntity } from '../../auth/api-key.entity';
import { QueryInteger } from '../../common/http/query';
import type { QuotaView } from '../../quota/quota.service';

export class CreatePortalKeyDto extends PickType(CreateApiKeyDto, ['name', 'parentNames', 'expiresAt']) {}

export class PortalKeyResponse extends ApiKeyResponse {
  @ApiProperty({ example: 1983 }) remaining: number;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: 'Why the key is suspended (its issuer no longer controls a parent, named here); null while it works',
  })
  suspendedReason: string | null;
}

export class CreatedPortalKeyResponse extends PortalKeyResponse {
  @ApiProperty({
    example: 'sns_Q2hLr8xvT1m0b3K9Yq7cW4pZs2aE6uN5dR8fG1hJ0kM',
    description: 'Shown only in this response',
  })
  key: string;
}

export function toPortalKeyResponse(key: ApiKeyEntity, quota: QuotaView): PortalKeyResponse {
  return {
    ...toApiKeyResponse(key, quota),
    remaining: Math.max(0, quota.limit - quota.used),
    suspendedReason: key.suspendedReason,
  };
}

const MAX_PAGE_SIZE = 100;

export class AdminKeysQueryDto {
  @ApiProperty({ required: false, type: 'integer', minimum: 1, default: 1 })
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(10_000)
  page: number = 1;

  @ApiProperty({ required: false, type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 25 })
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  size: number = 25;
}

export class AdminKeyPageResponse {
  @ApiProperty({ type: [PortalKeyResponse] }) items: PortalKeyResponse[];
  @ApiProperty({ example: 1 }) page: number;
  @ApiProperty({ example: 25 }) size: number;
  @ApiProperty({ example: 3 }) totalItems: number;
}

export class SetQuotaDto {
  @ApiProperty({ example: 5000, minimum: 0, maximum: 2147483647 })
  @IsInt()
  @Min(0)
  @Max(2147483647)
  quota: number;
}
