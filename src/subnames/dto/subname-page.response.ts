import { ApiProperty } from '@nestjs/swagger';
import type { SubnameEntity } from '../subname.entity';
import { SubnameResponse, toSubnameResponse } from './subname.response';

/** One page of a search, in creation order (then id). */
export class SubnamePageResponse {
  @ApiProperty({ type: [SubnameResponse] }) items: SubnameResponse[];
  @ApiProperty({ type: 'integer', example: 1, description: 'The page asked for, from 1' }) page: number;
  @ApiProperty({
    type: 'integer',
    example: 25,
    description: 'The page size asked for (items may hold fewer on the last page)',
  })
  size: number;
  @ApiProperty({ type: 'integer', example: 61, description: 'Subnames matching the filters, over all pages (exact)' })
  totalItems: number;
}

export function toSubnamePage(
  entities: SubnameEntity[],
  page: number,
  size: number,
  totalItems: number,
): SubnamePageResponse {
  return { items: entities.map(toSubnameResponse), page, size, totalItems };
}
