import { ApiProperty } from '@nestjs/swagger';
import { IsEnsName } from '../../common/validation/validators';

/** Path of GET and DELETE /subnames/{fullName}: a subname has at least three labels. */
export class SubnameParams {
  @ApiProperty({
    example: 'try-it.oak.eth',
    description: 'Full name of the subname; ENSIP-15 normalised before lookup (Alice.OAK.eth finds alice.oak.eth)',
  })
  @IsEnsName(3)
  fullName: string;
}
