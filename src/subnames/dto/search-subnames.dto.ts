import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidationArguments } from 'class-validator';
import { nameProblem } from '../../common/ens';
import { MAX_RECORDS, metadataKeyProblem, recordValueProblem } from '../../common/records';
import { satisfies } from '../../common/validators';
import { isIndexedFragment, normalizeLabelFragment } from '../search-filter';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
/** Deepest item a search reads: page × size stays within it (reading further is what export is for). */
export const MAX_SEARCH_WINDOW = 10_000;
export const MAX_PAGE = MAX_SEARCH_WINDOW;
/** Parents per search: each costs an index range in the exact count (measured in bench:search). */
export const MAX_PARENT_NAMES = 10;
export const MAX_LABEL_SEARCH = 255;

const MIN_PARENT_LABELS = 2;

type SearchShape = { parentName?: unknown; parentNames?: unknown };

function parentNameProblem(value: unknown, args: ValidationArguments): string | null {
  if (value === undefined) {
    return (args.object as SearchShape).parentNames === undefined ? 'is required unless parentNames is given' : null;
  }
  if (typeof value !== 'string') return 'must be a string';
  if (value.length < 1 || value.length > 255) return 'must be 1 to 255 characters';
  return nameProblem(value, MIN_PARENT_LABELS);
}

function parentNamesProblem(value: unknown, args: ValidationArguments): string | null {
  if (value === undefined) {
    return (args.object as SearchShape).parentName === undefined ? 'is required unless parentName is given' : null;
  }
  if (!Array.isArray(value)) return 'must be an array of parent names';
  if (value.length === 0) return 'must contain at least one parent name';
  if (value.length > MAX_PARENT_NAMES) return `must contain at most ${MAX_PARENT_NAMES} parent names`;
  for (const [i, name] of value.entries()) {
    if (typeof name !== 'string') return `[${i}] must be a string`;
    if (name.length < 1 || name.length > 255) return `[${i}] must be 1 to 255 characters`;
    const problem = nameProblem(name, MIN_PARENT_LABELS);
    if (problem) return `[${i}] ${problem}`;
  }
  return null;
}

/** Distinct parents a search names, as given (the validators of each name speak for themselves). */
function parentCount(o: SearchShape): number {
  const names = [o.parentName, ...(Array.isArray(o.parentNames) ? (o.parentNames as unknown[]) : [])];
  return new Set(names.filter((n) => typeof n === 'string').map((n) => (n as string).toLowerCase())).size;
}

function labelSearchProblem(value: unknown, args: ValidationArguments): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string') return 'must be a string';
  if (value.length > MAX_LABEL_SEARCH) return `must be at most ${MAX_LABEL_SEARCH} characters`;
  const fragment = normalizeLabelFragment(value);
  if (fragment !== '' && !isIndexedFragment(fragment) && parentCount(args.object as SearchShape) > 1) {
    return 'must contain 3 ASCII letters or digits in a row to search several parents at once; a shorter fragment searches one parent';
  }
  return null;
}

/** Any letter case: the filter compares lower-cased, so no EIP-55 checksum is demanded of it. */
function ownerFilterProblem(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
    return 'must be a 0x-prefixed 20-byte hex address (any letter case)';
  }
  return null;
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

/** The page's own bounds, then page × size ≤ MAX_SEARCH_WINDOW (named on page: the size is the reader's choice). */
function searchPageProblem(value: unknown, args: ValidationArguments): string | null {
  const own = pageProblem(MAX_PAGE, `from 1 to ${MAX_PAGE}`)(value);
  if (own) return own;
  const size = (args.object as { size?: unknown }).size;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) return null;
  if ((value as number) * size > MAX_SEARCH_WINDOW) {
    return `must keep page × size within ${MAX_SEARCH_WINDOW} (with size ${size}: at most page ${Math.floor(MAX_SEARCH_WINDOW / size)}); export reads further`;
  }
  return null;
}

/**
 * Body of POST /subnames/search. Every given filter must hold; parent names and the owner are normalised
 * (ENSIP-15, lower case) before matching. Order: creation time, then id.
 */
export class SearchSubnamesDto {
  @ApiPropertyOptional({
    example: 'oak.eth',
    maxLength: 255,
    description: 'Exact parent name (ENSIP-15 normalised). One of parentName / parentNames is required.',
  })
  @satisfies('isParentNameFilter', parentNameProblem)
  parentName?: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['oak.eth', 'pine.eth'],
    maxItems: MAX_PARENT_NAMES,
    description: `Several exact parent names (at most ${MAX_PARENT_NAMES} in all); with parentName as well, subnames of any of them match.`,
  })
  @satisfies('isParentNamesFilter', parentNamesProblem)
  parentNames?: string[];

  @ApiPropertyOptional({
    example: 'ali',
    maxLength: MAX_LABEL_SEARCH,
    description:
      'Case-insensitive substring of the label; % and _ are literal characters. Empty matches all. To search ' +
      'several parents it must contain 3 ASCII letters or digits in a row (the trigram index serves it); a ' +
      'shorter or non-ASCII fragment searches one parent.',
  })
  @satisfies('isLabelSearch', labelSearchProblem)
  labelSearch?: string;

  @ApiPropertyOptional({
    example: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
    pattern: '^0x[0-9a-fA-F]{40}$',
    description: 'Owner address in any letter case',
  })
  @satisfies('isOwnerFilter', ownerFilterProblem)
  owner?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { tier: 'gold' },
    description: 'Every given key must be present in the metadata with exactly this value',
  })
  @satisfies('isMetadataFilter', metadataFilterProblem)
  metadata?: Record<string, string>;

  @ApiPropertyOptional({
    type: 'integer',
    example: 1,
    minimum: 1,
    maximum: MAX_PAGE,
    default: 1,
    description: `page × size must not exceed ${MAX_SEARCH_WINDOW}: search reads the first ${MAX_SEARCH_WINDOW} matches; export reads all`,
  })
  @satisfies('isPage', searchPageProblem)
  page: number = 1;

  @ApiPropertyOptional({
    type: 'integer',
    example: DEFAULT_PAGE_SIZE,
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
  })
  @satisfies('isPageSize', pageProblem(MAX_PAGE_SIZE, `from 1 to ${MAX_PAGE_SIZE}`))
  size: number = DEFAULT_PAGE_SIZE;
}

/** A decimal integer string becomes a number; anything else is left for the validator to refuse. */
const toInteger = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value;

/** `parentNames=a.eth,b.eth`, repeated `parentNames=a.eth&parentNames=b.eth`, or both. */
const toNameList = ({ value }: { value: unknown }): unknown => {
  if (typeof value === 'string') return value.split(',');
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return (value as string[]).flatMap((v) => v.split(','));
  }
  return value;
};

/**
 * Query parameters of GET /subnames: the same filters as the search body, given as strings and converted
 * here (the global pipe converts nothing implicitly).
 */
export class ListSubnamesQueryDto extends SearchSubnamesDto {
  @Transform(toNameList)
  override parentNames?: string[] = undefined;

  /** Arrives as an object: gatherListQuery parses metadata={…} and gathers metadata[k]=v. */
  override metadata?: Record<string, string> = undefined;

  @Transform(toInteger)
  override page: number = 1;

  @Transform(toInteger)
  override size: number = DEFAULT_PAGE_SIZE;
}
