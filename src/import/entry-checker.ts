import { normalizeLabel, normalizeName } from '../common/ens/names';
import { FieldError, ValidationFailedError } from '../common/errors';
import { AppValidationPipe } from '../common/validation/validation.pipe';
import { CreateSubnameDto } from '../subnames/dto/create-subname.dto';
import { describeLocation, ImportRecord } from './import-source';

/** What the local check made of an entry. */
export interface Verdict {
  /** Why the entry is refused here, or null when it is to be sent. */
  problem: string | null;
  /** Why only the service can decide (a parentName outside the length bounds, perhaps one of its legacy parents). */
  leftToService?: string;
}

const describe = (errors: FieldError[]) => errors.map((f) => `${f.field}: ${f.message}`).join('; ');

/**
 * The full name of an entry refused for its parentName alone, when that parent is a valid name (so its length
 * was the problem); null otherwise. Only the service knows which such parents it stored before the bounds held
 * the normalised form, and accepts back.
 */
function outOfBoundsParent(e: ValidationFailedError, body: Record<string, unknown>): string | null {
  const errors = e.errors ?? [];
  if (errors.length !== 1 || errors[0].field !== 'parentName') return null;
  const { label, parentName } = body;
  if (typeof label !== 'string' || typeof parentName !== 'string') return null;
  try {
    return `${normalizeLabel(label)}.${normalizeName(parentName)}`;
  } catch {
    return null;
  }
}

/**
 * Validates like POST /subnames (the same pipe and DTO), so what it refuses the service would refuse too; an
 * entry refused for its parentName's length alone is left to the service, which knows its legacy parents.
 */
export class EntryChecker {
  private readonly pipe = new AppValidationPipe();
  /** Normalised fullName → where it was first seen. */
  private readonly seen = new Map<string, string>();

  async check(record: ImportRecord): Promise<Verdict> {
    if (record.problem) return { problem: record.problem };
    let fullName: string;
    let leftToService: string | undefined;
    try {
      const dto = (await this.pipe.transform(record.body, {
        type: 'body',
        metatype: CreateSubnameDto,
      })) as CreateSubnameDto;
      // The pipe hands over label and parentName ENSIP-15 normalised, as the service stores them.
      fullName = `${dto.label}.${dto.parentName}`;
    } catch (e) {
      if (!(e instanceof ValidationFailedError)) throw e;
      const name = outOfBoundsParent(e, record.body ?? {});
      if (name === null) return { problem: describe(e.errors ?? []) };
      fullName = name;
      leftToService = describe(e.errors ?? []);
    }
    const first = this.seen.get(fullName);
    if (first) return { problem: `repeats the fullName ${fullName} of ${first}` };
    this.seen.set(fullName, describeLocation(record));
    return { problem: null, leftToService };
  }
}
