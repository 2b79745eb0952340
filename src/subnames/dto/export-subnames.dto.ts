import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { toList } from '../../common/http/query';
import { IsEnsNameList } from '../../common/validation/validators';
import type { SubnameEntity } from '../subname.entity';

export const MAX_EXPORT_PARENTS = 100;

/** Query of GET /subnames/export: `parentName` once or repeated (or comma-separated); handed over normalised. */
export class ExportSubnamesQueryDto {
  @ApiProperty({
    type: [String],
    example: ['oak.eth'],
    maxItems: MAX_EXPORT_PARENTS,
    description: 'Parent name whose subnames (at any depth) are exported; repeat it for several parents',
  })
  @Transform(({ value }: { value: unknown }) => toList(value))
  @IsEnsNameList(2, [1, MAX_EXPORT_PARENTS], { length: [1, 255] })
  parentName: string[];
}

/** One NDJSON line of an export: the request shape of POST /subnames, so a file can be imported as it is. */
export interface SubnameExportLine {
  parentName: string;
  label: string;
  texts: { key: string; value: string }[];
  addresses: { coin: number; value: string }[];
  metadata: { key: string; value: string }[];
  owner: string | null;
  contenthash: string | null;
  ttl: number | null;
}

const entries = (map: Record<string, string>) => Object.entries(map).map(([key, value]) => ({ key, value }));

export function toSubnameExportLine(e: SubnameEntity): SubnameExportLine {
  return {
    parentName: e.parentName,
    label: e.label,
    texts: entries(e.texts),
    addresses: Object.entries(e.addresses).map(([coin, value]) => ({ coin: Number(coin), value })),
    metadata: entries(e.metadata),
    owner: e.owner,
    contenthash: e.contenthash,
    ttl: e.ttl,
  };
}
