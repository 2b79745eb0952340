import type { SearchSubnamesDto } from './dto/search-subnames.dto';
import type { RecordMap } from './subname.entity';

/** A search in canonical form: what the repository matches against the stored (normalised) columns. */
export interface SubnameFilter {
  /** Normalised, distinct, at least one. */
  parentNames: string[];
  /** Lower-case fragment of a label; matched literally. */
  labelSearch?: string;
  /** Lower-case 0x address. */
  owner?: string;
  metadata?: RecordMap;
}

export interface PageWindow {
  limit: number;
  offset: number;
}

/** The pipe handed the DTO over canonical (names normalised, fragment and owner folded); this assembles the filter. */
export function toSubnameFilter(dto: SearchSubnamesDto): SubnameFilter {
  const parents = [...(dto.parentName !== undefined ? [dto.parentName] : []), ...(dto.parentNames ?? [])];
  const filter: SubnameFilter = { parentNames: [...new Set(parents)] };
  if (dto.labelSearch !== undefined && dto.labelSearch !== '') filter.labelSearch = dto.labelSearch;
  if (dto.owner !== undefined) filter.owner = dto.owner;
  if (dto.metadata !== undefined && Object.keys(dto.metadata).length > 0) filter.metadata = { ...dto.metadata };
  return filter;
}
