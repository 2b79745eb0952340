import { ensNormalize } from 'ethers';
import { normalizeName } from '../common/ens';
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

/**
 * Labels are stored ENSIP-15 normalised, so a fragment is normalised the same way when it can be
 * (`ALI` → `ali`, emoji lose FE0F); a fragment that is no valid name on its own (`a_b`, `50%`) is lower-cased.
 */
export function normalizeLabelFragment(raw: string): string {
  if (raw === '') return '';
  try {
    return ensNormalize(raw);
  } catch {
    return raw.normalize('NFC').toLowerCase();
  }
}

/**
 * Whether the trigram index (IDX_subnames_label_trgm) can serve a normalised fragment: pg_trgm needs a word of
 * three characters inside `%…%`, and only ASCII letters and digits count as word characters in every locale.
 * Other fragments (`a`, `ab`, `_a`, `--`, `日本`) are matched by reading the parent's rows, so a search allows
 * them under one parent only.
 */
export function isIndexedFragment(fragment: string): boolean {
  return /[a-z0-9]{3}/.test(fragment);
}

/** The DTO has been validated; this derives the canonical filter. */
export function toSubnameFilter(dto: SearchSubnamesDto): SubnameFilter {
  const parents = [...(dto.parentName !== undefined ? [dto.parentName] : []), ...(dto.parentNames ?? [])];
  const filter: SubnameFilter = { parentNames: [...new Set(parents.map((n) => normalizeName(n)))] };
  const fragment = dto.labelSearch === undefined ? '' : normalizeLabelFragment(dto.labelSearch);
  if (fragment !== '') filter.labelSearch = fragment;
  if (dto.owner !== undefined) filter.owner = dto.owner.toLowerCase();
  if (dto.metadata !== undefined && Object.keys(dto.metadata).length > 0) filter.metadata = { ...dto.metadata };
  return filter;
}
