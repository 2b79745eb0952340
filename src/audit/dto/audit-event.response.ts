import { ApiProperty } from '@nestjs/swagger';
import { AUDIT_ACTIONS } from '../audit.types';
import type { AuditEventEntity } from '../audit-event.entity';

const FIELDS = { type: 'object', additionalProperties: true, nullable: true } as const;

export class AuditEventResponse {
  @ApiProperty({ example: '42', description: 'Increasing with each event' }) id: string;
  @ApiProperty({ example: '2026-11-22T10:00:00.000Z', format: 'date-time' }) at: string;
  @ApiProperty({ example: 'admin', description: '`admin`, or the id of the API key that made the change' })
  actor: string;
  @ApiProperty({ example: '9f1c7a52-3f0e-4a4e-b6a3-8c1d2e3f4a5b', description: 'x-request-id of the request' })
  requestId: string;
  @ApiProperty({ enum: AUDIT_ACTIONS, example: 'subname.update' }) action: string;
  @ApiProperty({ example: 'alice.oak.eth', description: 'A key id, `network/parentName`, or a full name' })
  subject: string;
  @ApiProperty({
    ...FIELDS,
    example: { owner: null },
    description: 'The changed fields before (null when created); never a secret',
  })
  before: Record<string, unknown> | null;
  @ApiProperty({
    ...FIELDS,
    example: { owner: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
    description: 'The changed fields after (null when deleted); never a secret',
  })
  after: Record<string, unknown> | null;
}

export class AuditPageResponse {
  @ApiProperty({ type: [AuditEventResponse] }) items: AuditEventResponse[];
  @ApiProperty({ type: 'integer', example: 1, description: 'The page asked for, from 1' }) page: number;
  @ApiProperty({ type: 'integer', example: 25, description: 'The page size asked for' }) size: number;
  @ApiProperty({ type: 'integer', example: 61, description: 'Events matching the filters, over all pages' })
  totalItems: number;
}

export function toAuditEventResponse(e: AuditEventEntity): AuditEventResponse {
  return {
    id: e.id,
    at: e.at.toISOString(),
    actor: e.actor,
    requestId: e.requestId,
    action: e.action,
    subject: e.subject,
    before: e.before,
    after: e.after,
  };
}

export function toAuditPage(
  items: AuditEventEntity[],
  page: number,
  size: number,
  totalItems: number,
): AuditPageResponse {
  return { items: items.map(toAuditEventResponse), page, size, totalItems };
}
