import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsEvmAddress, satisfies } from '../../common/validation/validators';

export class HolderParams {
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })
  @IsEvmAddress()
  address: string;
}

/** Deeper reading is what export is for (as for search). */
const MAX_DEPTH = 10_000;

export class HolderNamesQuery {
  @ApiPropertyOptional({ example: 1, minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page: number = 1;

  @ApiPropertyOptional({ example: 25, minimum: 1, maximum: 100, default: 25 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  @satisfies('withinDepth', (size, args) => {
    const page = (args.object as HolderNamesQuery).page;
    return typeof size === 'number' && typeof page === 'number' && page * size > MAX_DEPTH
      ? `page × size must be at most ${MAX_DEPTH}`
      : null;
  })
  size: number = 25;
}
