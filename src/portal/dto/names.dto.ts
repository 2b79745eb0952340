import { ApiProperty, PickType } from '@nestjs/swagger';
import { IsEnsName } from '../../common/validation/validators';
import { ListSubnamesQueryDto } from '../../subnames/dto/search-subnames.dto';

const ROLES = ['manager', 'wrapped-owner', 'registrant', 'operator'];

export class NameDto {
  @ApiProperty({ example: 'oak.eth', minLength: 1, maxLength: 255, description: 'A name of at least two labels' })
  @IsEnsName(2, { length: [1, 255] })
  name: string;
}

export class NameControlResponse {
  @ApiProperty({ example: 'oak.eth' }) name: string;
  @ApiProperty({ enum: ROLES, example: 'manager', description: 'The first rule that holds, in this order' })
  role: string;
  @ApiProperty({ example: false, description: 'The registry owner is the Name Wrapper' }) wrapped: boolean;
}

export class PortalNameResponse extends NameControlResponse {
  @ApiProperty({ example: '2026-11-25T10:00:00.000Z', format: 'date-time', description: 'When it was read on chain' })
  checkedAt: string;
}

export class MeResponse {
  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', description: 'EIP-55' }) address: string;
  @ApiProperty({ description: 'Send it as x-portal-csrf on every state-changing request' }) csrfToken: string;
  @ApiProperty({ example: false, description: 'The wallet is in PORTAL_ADMIN_ADDRESSES' }) admin: boolean;
  @ApiProperty({ type: [PortalNameResponse] }) names: PortalNameResponse[];
}

/** GET /portal/api/subnames: the search of GET /subnames for one parent the wallet controls. */
export class PortalSubnamesQueryDto extends PickType(ListSubnamesQueryDto, [
  'parentName',
  'labelSearch',
  'page',
  'size',
]) {}

export class PortalExportQueryDto {
  @ApiProperty({ example: 'oak.eth', minLength: 1, maxLength: 255 })
  @IsEnsName(2, { length: [1, 255] })
  parentName: string;
}
