import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, ValidateNested } from 'class-validator';
import { ValidatedInSlices } from '../../common/validation/sliced-array';
import { HasNoArrayEntries } from '../../common/validation/validators';
import { MAX_BATCH_ITEMS } from './batch-limits';
import { markRepeatedFullNames } from './batch-repeats';
import { CreateSubnameDto } from './create-subname.dto';
import { SubnameResponse } from './subname.response';

export class BatchSubnamesDto {
  @ApiProperty({
    type: [CreateSubnameDto],
    minItems: 1,
    maxItems: MAX_BATCH_ITEMS,
    description:
      'Up to 1000 POST /subnames bodies, each with the same validation and create-or-update semantics; ' +
      'no two may have the same fullName (after ENSIP-15 normalisation)',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_ITEMS)
  @HasNoArrayEntries()
  @ValidateNested({ each: true })
  @ValidatedInSlices(() => CreateSubnameDto, markRepeatedFullNames)
  items: CreateSubnameDto[];
}

export class BatchItemResult {
  @ApiProperty({ example: 'alice.oak.eth' }) fullName: string;
  @ApiProperty({ enum: ['created', 'updated'], example: 'created' }) status: 'created' | 'updated';
  @ApiProperty({ type: SubnameResponse }) subname: SubnameResponse;
}

export class BatchResponse {
  @ApiProperty({ example: 2, description: 'Items that created a subname (each used one unit of quota)' })
  created: number;
  @ApiProperty({ example: 1, description: 'Items that updated an existing subname (no quota used)' })
  updated: number;
  @ApiProperty({ type: [BatchItemResult], description: 'One result per item, in the order given' })
  items: BatchItemResult[];
}
