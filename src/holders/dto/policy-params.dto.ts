import { ApiProperty } from '@nestjs/swagger';
import { IsEnsName } from '../../common/validation/validators';

export class PolicyParams {
  @ApiProperty({
    example: 'oak.eth',
    minLength: 3,
    maxLength: 255,
    description: 'The parent whose holders the policy governs (normalised)',
  })
  @IsEnsName(2, { length: [1, 255] })
  parentName: string;
}
