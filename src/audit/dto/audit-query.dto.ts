import { ApiPropertyOptional } from '@nestjs/swagger';
import { isISO8601, ValidationArguments } from 'class-validator';
import { QueryInteger } from '../../common/http/query';
import { canonical, satisfies } from '../../common/validation/validators';
import { checksumAddress } from '../../common/ens/evm-address';
import { ADMIN_ACTOR, PORTAL_ACTOR } from '../audit.types';

export const DEFAULT_AUDIT_PAGE_SIZE = 25;
export const MAX_AUDIT_PAGE_SIZE = 100;
/** The deepest event a page reads, as for the subname search: page × size at most this. */
export const MAX_AUDIT_WINDOW = 10_000;
const MAX_SUBJECT = 512;
const WALLET = /^wallet:0x[0-9a-fA-F]{40}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function pageProblem(max: number) {
  return (value: unknown): string | null => {
    if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be an integer';
    return value < 1 || value > max ? `must be from 1 to ${max}` : null;
  };
}

function windowProblem(value: unknown, args: ValidationArguments): string | null {
  const size = (args.object as { size?: unknown }).size;
  if (typeof value !== 'number' || typeof size !== 'number' || pageProblem(MAX_AUDIT_PAGE_SIZE)(size) !== null)
    return null;
  return value * size > MAX_AUDIT_WINDOW
    ? `times size must be at most ${MAX_AUDIT_WINDOW} (page ${value} × size ${size}); narrow with since`
    : null;
}

/** Query of GET /admin/audit: every given filter must hold; newest first. */
export class AuditQueryDto {
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    example: '2026-11-22T00:00:00Z',
    description: 'Events at or after this time (ISO 8601)',
  })
  @canonical(
    'isSince',
    (raw) => {
      const date = typeof raw === 'string' && isISO8601(raw, { strict: true }) ? new Date(raw) : undefined;
      if (!date || Number.isNaN(date.getTime())) throw new Error('must be a valid ISO 8601 date-time');
      return date;
    },
    { optional: true },
  )
  since?: Date;

  @ApiPropertyOptional({
    example: 'admin',
    pattern:
      '^(admin|portal|wallet:0x[0-9a-fA-F]{40}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$',
    description:
      'Who made the change: `admin`, an API key id (UUID, any letter case), `wallet:<address>` for a wallet signed in to ' +
      "the portal or choosing its primary name, or `portal` for the portal's own ownership checks",
  })
  @canonical(
    'isActor',
    (raw) => {
      if (raw === ADMIN_ACTOR || raw === PORTAL_ACTOR) return raw;
      if (typeof raw === 'string' && UUID.test(raw)) return raw.toLowerCase();
      if (typeof raw === 'string' && WALLET.test(raw)) return `wallet:${checksumAddress(raw.slice(7))}`;
      throw new Error('must be admin, portal, wallet:<address> or an API key id (UUID)');
    },
    { optional: true },
  )
  actor?: string;

  @ApiPropertyOptional({
    example: 'alice.oak.eth',
    minLength: 1,
    maxLength: MAX_SUBJECT,
    description:
      'What was changed, exactly as recorded: a key id, `network/parentName` for a listing, a full name, or the ' +
      'EIP-55 address whose primary name was chosen',
  })
  @canonical(
    'isSubject',
    (raw) => {
      if (typeof raw !== 'string' || raw.length < 1 || raw.length > MAX_SUBJECT) {
        throw new Error(`must be a string of 1 to ${MAX_SUBJECT} characters`);
      }
      return raw;
    },
    { optional: true },
  )
  name?: string;

  @ApiPropertyOptional({ type: 'integer', example: 1, minimum: 1, maximum: MAX_AUDIT_WINDOW, default: 1 })
  @QueryInteger()
  @satisfies('isPage', pageProblem(MAX_AUDIT_WINDOW))
  @satisfies('isWithinResultWindow', windowProblem)
  page: number = 1;

  @ApiPropertyOptional({
    type: 'integer',
    example: DEFAULT_AUDIT_PAGE_SIZE,
    minimum: 1,
    maximum: MAX_AUDIT_PAGE_SIZE,
    default: DEFAULT_AUDIT_PAGE_SIZE,
  })
  @QueryInteger()
  @satisfies('isPageSize', pageProblem(MAX_AUDIT_PAGE_SIZE))
  size: number = DEFAULT_AUDIT_PAGE_SIZE;
}
