import { Injectable, PipeTransform } from '@nestjs/common';
import { ValidationFailedError } from './errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Refuses a path id that is not a UUID with a field error, instead of a database error. */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value)) throw new ValidationFailedError([{ field: 'id', message: 'must be a UUID' }]);
    return value.toLowerCase();
  }
}
