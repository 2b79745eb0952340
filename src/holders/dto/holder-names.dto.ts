import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { toInteger } from '../../common/http/query';
import { IsEvmAddress, satisfies } from '../../common/validation/validators';

export class HolderParams {
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })
  @IsEvmAddress()
  address: string;
}

/** Deeper reading is what export is for (as for search). */
const MAX_DEPTH = 10_000;
const MAX_SIZE = 100;

function integerProblem(max: number) {
  return (value: unknown): string | null =>
    typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max
      ? null
      : `must be an integer from 1 to ${max}`;
}

const fromQuery = () => Transform(({ value }: { value: unknown }) => toInteger(value));

export class HolderNamesQuery {
  @ApiPropertyOptional({ type: 'integer', example: 1, minimum: 1, maximum: MAX_DEPTH, default: 1 })
  @fromQuery()
  @satisfies('isPage', integerProblem(MAX_DEPTH))
  @satisfies('isWithinResultWindow', (page, args) => {
    const size = (args.object as HolderNamesQuery).size;
    return typeof page === 'number' && typeof size === 'number' && page * size > MAX_DEPTH
      ? `must keep page × size within ${MAX_DEPTH}`
      : null;
  })
  page: number = 1;

  @ApiPropertyOptional({ type: 'integer', example: 25, minimum: 1, maximum: MAX_SIZE, default: 25 })
  @fromQuery()
  @satisfies('isPageSize', integerProblem(MAX_SIZE))
  size: number = 25;
}
