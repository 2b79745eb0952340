import { UsageError } from '../common/command-line';
import { IdParams } from '../common/validation/id-params.dto';
import { CreateApiKeyDto } from '../admin/dto/api-key.dto';
import { validated } from './route-validation';

const FLAGS = { id: 'ID', parentNames: '--parent', expiresAt: '--expires' };

describe(validated.name, () => {
  it('hands over what the route would', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    await expect(validated(IdParams, { id }, 'param', FLAGS)).resolves.toEqual({ id });
  });

  it('a refused value is a usage error naming the option the user typed', async () => {
    await expect(validated(IdParams, { id: 'nope' }, 'param', FLAGS)).rejects.toThrow(UsageError);
    await expect(validated(IdParams, { id: 'nope' }, 'param', FLAGS)).rejects.toThrow('ID: must be a UUID');
    const dto = { name: 'a', parentNames: ['oak.eth', 'eth'], expiresAt: '2001-01-01T00:00:00Z' };
    const refused = validated(CreateApiKeyDto, dto, 'body', FLAGS);
    await expect(refused).rejects.toThrow(/^--parent: \[1\] .*\n--expires: must be in the future/);
  });
});
