import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, ValidateIf } from 'class-validator';
import { QueryBoolean } from '../../common/http/query';

export class SignerQueryDto {
  @ApiPropertyOptional({ example: false, default: false, type: Boolean, description: '`true` or `false`' })
  @QueryBoolean()
  @ValidateIf((_: object, v: unknown) => v !== undefined)
  @IsBoolean()
  isTestnet?: boolean;
}

class DomainResponse {
  @ApiProperty({ example: 'namespace' }) name: string;
  @ApiProperty({ example: '1' }) version: string;
  @ApiProperty({ example: 1 }) chainId: number;
  @ApiProperty({ example: '0xCf7625A2fb60B0822444E5964b4Ce80c148e7Fad' }) verifyingContract: string;
}

export class SignerResponse {
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', description: 'Address of the signer' })
  address: string;
  @ApiProperty({ example: 1 }) chainId: number;
  @ApiProperty({ example: '0xCf7625A2fb60B0822444E5964b4Ce80c148e7Fad' }) verifyingContract: string;
  @ApiProperty({ type: DomainResponse }) domain: DomainResponse;
  @ApiProperty({
    type: 'object',
    additionalProperties: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, type: { type: 'string' } } },
    },
    example: { MintContext: [{ name: 'label', type: 'string' }] },
  })
  types: Record<string, { name: string; type: string }[]>;
  @ApiProperty({ example: 'MintContext' }) primaryType: string;
}
