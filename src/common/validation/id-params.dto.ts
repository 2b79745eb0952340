import { ApiProperty } from '@nestjs/swagger';
import { canonical } from './validators';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Path of the routes of one stored item by id: a UUID in any letter case, handed over lower case. */
export class IdParams {
  @ApiProperty({ example: '0b5c1c0e-9a57-4d43-8f43-3c1f0c7e2a11', format: 'uuid' })
  @canonical('isUuid', (raw) => {
    if (typeof raw !== 'string' || !UUID.test(raw)) throw new Error('must be a UUID');
    return raw.toLowerCase();
  })
  id: string;
}
