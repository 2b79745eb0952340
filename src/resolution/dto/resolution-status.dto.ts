import { ApiProperty } from '@nestjs/swagger';
import { IsEnsName } from '../../common/validation/validators';
import { CHECK_STEPS, type CheckStepName } from '../resolver-check';

export class ResolutionStatusQueryDto {
  @ApiProperty({ example: 'oak.eth', description: 'The parent name whose on-chain resolver is checked' })
  @IsEnsName()
  parentName: string;
}

export class ResolutionStatusStep {
  @ApiProperty({ enum: CHECK_STEPS, example: 'registry' }) step: CheckStepName;
  @ApiProperty({ example: true }) ok: boolean;
  @ApiProperty({
    example: 'oak.eth has the resolver 0x8464135c8F25Da09e49BC8782676a84730C318bC in the ENS registry 0x…',
    description: 'What was found; for a failed step, what to do next (which command, which transaction)',
  })
  detail: string;
}

export class ResolutionStatusResponse {
  @ApiProperty({ example: 'oak.eth' }) parentName: string;
  @ApiProperty({ example: true, description: 'true only when every step holds' }) ok: boolean;
  @ApiProperty({
    type: [ResolutionStatusStep],
    description:
      'registry, wildcard, gateway, signer, answer: always all five, in this order; a step after a failed one is ' +
      'ok: false with a detail saying it was not run',
  })
  steps: ResolutionStatusStep[];
}
