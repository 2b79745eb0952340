import { FieldError, ValidationFailedError } from '../common/errors';
import { AppValidationPipe } from '../common/validation/validation.pipe';
import { CreateSubnameDto } from '../subnames/dto/create-subname.dto';
import { describeLocation, ImportRecord } from './import-source';

/** What the local check made of an entry. */
export interface Verdict {
  /** Why the entry is refused here, or null when it is to be sent. */
  problem: string | null;
}

const describe = (errors: FieldError[]) => errors.map((f) => `${f.field}: ${f.message}`).join('; ');

/** Validates like POST /subnames (the same pipe and DTO), so what it refuses the service would refuse too. */
export class EntryChecker {
  private readonly pipe = new AppValidationPipe();
  /** Normalised fullName → where it was first seen. */
  private readonly seen = new Map<string, string>();

  async check(record: ImportRecord): Promise<Verdict> {
    if (record.problem) return { problem: record.problem };
    if (record.policy) return this.checkPolicy(record, record.policy);
    let fullName: string;
    try {
      const dto = (await this.pipe.transform(record.body, {
        type: 'body',
        metatype: CreateSubnameDto,
      })) as CreateSubnameDto;
      // The pipe hands over label and parentName ENSIP-15 normalised, as the service stores them.
      fullName = `${dto.label}.${dto.parentName}`;
    } catch (e) {
      if (!(e instanceof ValidationFailedError)) throw e;
      return { problem: describe(e.errors ?? []) };
    }
    const first = this.seen.get(fullName);
    if (first) return { problem: `repeats the fullName ${fullName} of ${first}` };
    this.seen.set(fullName, describeLocation(record));
    return { problem: null };
  }

  /** A policy line names its parent once; the rest of its rules the service checks (PUT /policies). */
  private checkPolicy(record: ImportRecord, policy: Record<string, unknown>): Verdict {
    const parent = policy.parentName;
    if (typeof parent !== 'string' || parent.trim() === '') return { problem: 'policy.parentName: must be a name' };
    const key = `policy ${parent.toLowerCase()}`;
    const first = this.seen.get(key);
    if (first) return { problem: `repeats the policy of ${parent} of ${first}` };
    this.seen.set(key, describeLocation(record));
    return { problem: null };
  }
}
