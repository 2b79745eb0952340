import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { normalizeLabel } from '../../common/ens/names';
import { coinProblem, evmAddressProblem, textKeyProblem } from '../../common/ens/records';
import { checksumAddress } from '../../common/ens/evm-address';
import { NestedType } from '../../common/validation/nested-type';
import { canonical, satisfies } from '../../common/validation/validators';

export const MAX_ALLOWLIST = 10_000;
export const MAX_RESERVED = 1000;
/** Bytes of a policy body: 10,000 addresses (450 KB) and 1,000 reserved labels of 255 characters fit (64 KB would not). */
export const POLICY_BODY_LIMIT = 1024 * 1024;

/** Each entry through `one` (which throws the reason), reported as `[i] reason`; duplicates dropped. */
function listOf(one: (raw: unknown) => string | number, max: number, min = 0) {
  return (raw: unknown) => {
    if (!Array.isArray(raw)) throw new Error('must be an array');
    if (raw.length < min) throw new Error(`must contain at least ${min} entr${min === 1 ? 'y' : 'ies'}`);
    if (raw.length > max) throw new Error(`must contain at most ${max} entries`);
    const out = raw.map((entry: unknown, i) => {
      try {
        return one(entry);
      } catch (e) {
        throw new Error(`[${i}] ${(e as Error).message}`);
      }
    });
    return [...new Set(out)];
  };
}

function address(raw: unknown): string {
  const problem = evmAddressProblem(raw);
  if (problem) throw new Error(problem);
  return checksumAddress(raw as string);
}

function label(raw: unknown): string {
  if (typeof raw !== 'string') throw new Error('must be a string');
  return normalizeLabel(raw);
}

function textKey(raw: unknown): string {
  if (raw === '*') return raw;
  const problem = textKeyProblem(raw);
  if (problem) throw new Error(problem);
  return raw as string;
}

function coin(raw: unknown): number | '*' {
  if (raw === '*') return raw;
  const problem = coinProblem(raw);
  if (problem) throw new Error(problem);
  return raw as number;
}

const LENGTH_UNIT =
  'Characters of the normalised label, counted as code points (an emoji is one), as the .eth registrar counts';

export class LabelRulesDto {
  @ApiPropertyOptional({ example: 3, minimum: 1, maximum: 255, default: 3, description: LENGTH_UNIT })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(255)
  minLength?: number;

  @ApiPropertyOptional({ example: 63, minimum: 1, maximum: 255, default: 63, description: LENGTH_UNIT })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(255)
  @satisfies('atLeastMinLength', (v, args) => {
    const min = (args.object as LabelRulesDto).minLength ?? 3;
    return typeof v === 'number' && v < min ? `must be at least minLength (${min})` : null;
  })
  maxLength?: number;

  @ApiPropertyOptional({ type: [String], example: ['admin', 'www'], maxItems: MAX_RESERVED, default: [] })
  @IsOptional()
  @canonical('isLabelList', listOf(label, MAX_RESERVED))
  reserved?: string[];
}

export class HolderRecordRulesDto {
  @ApiPropertyOptional({ type: [String], example: ['avatar', 'description'], default: ['*'] })
  @IsOptional()
  @canonical('isTextKeyList', listOf(textKey, 1000))
  texts?: string[];

  @ApiPropertyOptional({
    type: 'array',
    items: { oneOf: [{ type: 'integer' }, { type: 'string', enum: ['*'] }] },
    example: [60],
    default: ['*'],
  })
  @IsOptional()
  @canonical('isCoinList', listOf(coin, 1000))
  addresses?: (number | '*')[];

  @ApiPropertyOptional({ example: true, default: true })
  @IsOptional()
  @IsBoolean()
  contenthash?: boolean;
}

/** Body of PUT /policies/{parentName}: a left-out field takes its default. */
export class PutPolicyDto {
  @ApiPropertyOptional({ enum: ['closed', 'open', 'allowlist'], default: 'closed' })
  @IsOptional()
  @IsIn(['closed', 'open', 'allowlist'])
  claims?: 'closed' | 'open' | 'allowlist';

  @ApiPropertyOptional({
    type: [String],
    example: ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    minItems: 1,
    maxItems: MAX_ALLOWLIST,
    description: 'Required when claims is "allowlist"',
  })
  @ValidateIf((o: PutPolicyDto) => o.claims === 'allowlist' || o.allowlist !== undefined)
  @canonical('isAddressList', listOf(address, MAX_ALLOWLIST, 1))
  allowlist?: string[];

  @ApiPropertyOptional({ example: 1, minimum: 1, maximum: 100, default: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  claimsPerAddress?: number;

  @ApiPropertyOptional({ type: LabelRulesDto })
  @IsOptional()
  @ValidateNested()
  @NestedType(() => LabelRulesDto)
  labels?: LabelRulesDto;

  @ApiPropertyOptional({ type: HolderRecordRulesDto })
  @IsOptional()
  @ValidateNested()
  @NestedType(() => HolderRecordRulesDto)
  holderRecords?: HolderRecordRulesDto;

  @ApiPropertyOptional({ example: true, default: true })
  @IsOptional()
  @IsBoolean()
  transfers?: boolean;

  @ApiPropertyOptional({ example: true, default: true })
  @IsOptional()
  @IsBoolean()
  deletes?: boolean;
}
