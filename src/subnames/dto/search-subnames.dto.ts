import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, ValidationArguments } from 'class-validator';
import { MAX_RECORDS, metadataKeyProblem, recordValueProblem } from '../../common/ens/records';
import { toInteger, toList, toObject } from '../../common/http/query';
import { isIndexedFragment, normalizeLabelFragment } from '../../common/ens/names';
import { FreeKeyMap } from '../../common/validation/free-key-map';
import { canonical, IsEnsName, IsEnsNameList, satisfies } from '../../common/validation/validators';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
/** The deepest result a search reads: page × size at most this (deeper reading is what export is for). */
export const MAX_RESULT_WINDOW = 10_000;
export const MAX_PAGE = MAX_RESULT_WINDOW;
/** Parents per search: each costs an index range in the exact count (measured in bench:search). */
export const MAX_PARENT_NAMES = 10;
export const MAX_LABEL_SEARCH = 255;

const MIN_PARENT_LABELS = 2;

type SearchShape = { parentName?: unknown; parentNames?: unknown };

/** One of parentName / parentNames is required: said once, on parentName, when neither is given. */
function parentGiven(value: unknown, args: ValidationArguments): string | null {
  return value === undefined && (args.object as SearchShape).parentNames === undefined
    ? 'is required (or parentNames)'
    : null;
}

/** Distinct parents a search names, as given (the validators of each name speak for themselves). */
function parentCount(o: SearchShape): number {
  const given = typeof o.parentNames === 'string' ? o.parentNames.split(',') : o.parentNames;
  const names = [o.parentName, ...(Array.isArray(given) ? (given as unknown[]) : [])];
  return new Set(names.filter((n) => typeof n === 'string').map((n) => (n as string).toLowerCase())).size;
}

/**
 * Labels are stored normalised, so the fragment is folded the same way. A fragment the trigram index cannot
 * serve (fewer than 3 ASCII letters or digits in a row) would read every row of each parent: one parent only.
 */
function labelFragment(value: unknown, source: Record<string, unknown>): string {
  if (typeof value !== 'string') throw new Error('must be a string');
  if (value.length > MAX_LABEL_SEARCH) throw new Error(`must be at most ${MAX_LABEL_SEARCH} characters`);
  const fragment = normalizeLabelFragment(value);
  if (fragment !== '' && !isIndexedFragment(fragment) && parentCount(source as SearchShape) > 1) {
    throw new Error(
      'must contain 3 ASCII letters or digits in a row to search several parents at once; a shorter fragment searches one parent',
    );
  }
  return fragment;
}

/** Any letter case: the filter compares lower-cased, so no EIP-55 checksum is demanded of it. */
function ownerFilter(value: unknown): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
    throw new Error('must be a 0x-prefixed 20-byte hex address (any letter case)');
  }
  return value.toLowerCase();
}

function metadataFilterProblem(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'must be an object of string values ({"tier": "gold"}; on GET metadata[tier]=gold or a JSON object)';
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_RECORDS) return `must have at most ${MAX_RECORDS} keys`;
  for (const [key, v] of entries) {
    const keyProblem = metadataKeyProblem(key);
    if (keyProblem) return `key ${JSON.stringify(key)} ${keyProblem}`;
    const valueProblem = recordValueProblem(v);
    if (valueProblem) return `value of ${JSON.stringify(key)} ${valueProblem}`;
  }
  return null;
}

function pageProblem(max: number, what: string) {
  return (value: unknown): string | null => {
    if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be an integer';
    if (value < 1 || value > max) return `must be ${what}`;
    return null;
  };
}

/** page × size ≤ MAX_RESULT_WINDOW, reported on page once both are integers in range. */
function windowProblem(value: unknown, args: ValidationArguments): string | null {
  const size = (args.object as { size?: unknown }).size;
  if (typeof value !== 'number' || typeof size !== 'number' || pageProblem(MAX_PAGE_SIZE, '')(size) !== null)
    return null;
  return value * size > MAX_RESULT_WINDOW
    ? `must keep page × size within ${MAX_RESULT_WINDOW} (with size ${size}: at most page ${Math.floor(MAX_RESULT_WINDOW / size)}); export reads further`
    : null;
}

/** Query values are strings: the list query converts them (no implicit conversion) before the same checks. */
const fromQuery = (convert: (value: unknown) => unknown, query: boolean): PropertyDecorator =>
  query ? Transform(({ value }: { value: unknown }) => convert(value)) : () => undefined;

/**
 * The search filters, as a JSON body (POST /subnames/search) or as query parameters (GET /subnames), where
 * each value is first converted from its string form. Every given filter must hold; parent names are
 * handed over ENSIP-15 normalised. Order: creation time, then id.
 */
function searchFilters(query: boolean) {
  class SearchFilters {
    @ApiPropertyOptional({
      example: 'oak.eth',
      maxLength: 255,
      description: 'Exact parent name (ENSIP-15 normalised). One of parentName / parentNames is required.',
    })
    @IsEnsName(MIN_PARENT_LABELS, { length: [1, 255], optional: true })
    @satisfies('isParentNameGiven', parentGiven)
    parentName?: string;

    @ApiPropertyOptional({
      type: [String],
      example: ['oak.eth', 'pine.eth'],
      maxItems: MAX_PARENT_NAMES,
      description: query
        ? `Comma-separated (oak.eth,pine.eth) or repeated; up to ${MAX_PARENT_NAMES}. With parentName as well, subnames of any of them match.`
        : 'Several exact parent names; with parentName as well, subnames of any of them match.',
    })
    @fromQuery(toList, query)
    @IsEnsNameList(MIN_PARENT_LABELS, [1, MAX_PARENT_NAMES], {
      length: [1, 255],
      optional: true,
    })
    parentNames?: string[];

    @ApiPropertyOptional({
      example: 'ali',
      maxLength: MAX_LABEL_SEARCH,
      description:
        'Case-insensitive substring of the label; % and _ are literal characters. Empty matches all. To search ' +
        'several parents it must contain 3 ASCII letters or digits in a row (the trigram index serves it); a ' +
        'shorter or non-ASCII fragment searches one parent.',
    })
    @canonical('isLabelSearch', labelFragment, { optional: true })
    labelSearch?: string;

    @ApiPropertyOptional({
      example: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
      pattern: '^0x[0-9a-fA-F]{40}$',
      description: 'Owner address in any letter case',
    })
    @canonical('isOwnerFilter', ownerFilter, { optional: true })
    owner?: string;

    @ApiPropertyOptional({
      type: 'object',
      additionalProperties: { type: 'string' },
      example: { tier: 'gold' },
      description: query
        ? 'metadata[tier]=gold (one parameter per key), or metadata={"tier":"gold"}; every given key must hold exactly this value'
        : 'Every given key must be present in the metadata with exactly this value',
    })
    @Allow() // validated by FreeKeyMap, in the pipe
    @FreeKeyMap({ convert: query ? toObject('metadata') : undefined, problem: metadataFilterProblem })
    metadata?: Record<string, string>;

    @ApiPropertyOptional({
      type: 'integer',
      example: 1,
      minimum: 1,
      maximum: MAX_PAGE,
      default: 1,
      description: `page × size must not exceed ${MAX_RESULT_WINDOW}: search reads the first ${MAX_RESULT_WINDOW} matches; export reads all`,
    })
    @fromQuery(toInteger, query)
    @satisfies('isPage', pageProblem(MAX_PAGE, `from 1 to ${MAX_PAGE}`))
    @satisfies('isWithinResultWindow', windowProblem)
    page: number = 1;

    @ApiPropertyOptional({
      type: 'integer',
      example: DEFAULT_PAGE_SIZE,
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: DEFAULT_PAGE_SIZE,
    })
    @fromQuery(toInteger, query)
    @satisfies('isPageSize', pageProblem(MAX_PAGE_SIZE, `from 1 to ${MAX_PAGE_SIZE}`))
    size: number = DEFAULT_PAGE_SIZE;
  }
  return SearchFilters;
}

/** Body of POST /subnames/search. */
export class SearchSubnamesDto extends searchFilters(false) {}

/** Query of GET /subnames: the same filters as strings (metadata also as metadata[key]=value). */
export class ListSubnamesQueryDto extends searchFilters(true) {}
