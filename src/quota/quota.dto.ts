import { ApiProperty } from '@nestjs/swagger';

export class QuotaResponse {
  @ApiProperty({ example: 2000, description: 'Creations this key may make' }) limit: number;
  @ApiProperty({ example: 17, description: 'Creations made (deletes give nothing back)' }) used: number;
  @ApiProperty({ example: 1983 }) remaining: number;
}
