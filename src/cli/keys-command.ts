import { randomUUID } from 'node:crypto';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuditModule } from '../audit/audit.module';
import { AuditService } from '../audit/audit.service';
import { ADMIN_ACTOR, type Actor } from '../audit/audit.types';
import { AuditQueryDto } from '../audit/dto/audit-query.dto';
import { CliFailure, type CliResult, parseCommandLine, UsageError } from '../common/command-line';
import { ValidationFailedError } from '../common/errors';
import { IdParams } from '../common/validation/id-params.dto';
import { AppValidationPipe } from '../common/validation/validation.pipe';
import { AppConfig, loadConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { findRunningEmbeddedDatabase, TOOL_WAIT_MS } from '../database/embedded-database';
import { CreateApiKeyDto, RotateApiKeyDto, UpdateApiKeyDto } from '../admin/dto/api-key.dto';
import { AdminModule } from '../admin/admin.module';
import { KeysService } from '../admin/keys.service';

export const KEYS_USAGE = [
  [
    'keys create',
    `  keys create --name NAME --parent NAME [--parent NAME …] [--quota N] [--expires ISO-8601]
      Issues a key and prints it once (with --json, as JSON).`,
  ],
  ['keys list', '  keys list'],
  ['keys update', '  keys update ID [--name NAME] [--parent NAME …] [--quota N] [--expires ISO-8601 | --no-expiry]'],
  [
    'keys rotate',
    `  keys rotate ID [--grace SECONDS]
      A new secret for the same key, printed once; the old one keeps working for SECONDS (default 0), then stops.`,
  ],
  ['keys revoke', '  keys revoke ID'],
  [
    'audit',
    `  audit [--since ISO-8601] [--actor admin|KEY-ID] [--name SUBJECT] [--page P] [--size S]
      The audit trail, newest first, as JSON.`,
  ],
  [
    'keys',
    `  Changes made here are recorded in the audit trail with the actor admin and a request id cli-<uuid>.
  The keys and audit commands use DATABASE_URL, or else the embedded database in DATA_DIR (through the running
  service when there is one).`,
  ],
] as const;

@Module({})
class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: CliModule, imports: [ConfigModule.forRoot(config), DatabaseModule, AdminModule, AuditModule] };
  }
}

/** The HTTP routes' own validation (the global pipe), so the CLI accepts and refuses exactly what they do. */
async function checked<T extends object>(cls: new () => T, plain: object, type: 'body' | 'query' = 'body'): Promise<T> {
  try {
    return (await new AppValidationPipe().transform(plain, { type, metatype: cls })) as T;
  } catch (e) {
    if (!(e instanceof ValidationFailedError)) throw e;
    throw new CliFailure((e.errors ?? []).map((f) => `${f.field}: ${f.message}`).join('\n'));
  }
}

const OPTIONS = {
  name: { type: 'string' },
  parent: { type: 'string', multiple: true },
  quota: { type: 'string' },
  expires: { type: 'string' },
  'no-expiry': { type: 'boolean' },
  json: { type: 'boolean' },
  grace: { type: 'string' },
  since: { type: 'string' },
  actor: { type: 'string' },
  page: { type: 'string' },
  size: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseCommandLine<typeof OPTIONS>>['values'];

function integer(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number (0 or more), not ${value}`);
  return Number(value);
}

/** `keys …` and `audit`: the admin routes' use cases on the service's own database. */
export async function runKeys(argv: string[]): Promise<CliResult> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  return { output: await keys(values, positionals), exitCode: 0 };
}

async function keys(values: Values, positionals: string[]): Promise<string> {
  const [group, command, id] = positionals;
  const extra = positionals.slice(group === 'audit' ? 1 : command === 'create' || command === 'list' ? 2 : 3);
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`);
  // One run of the CLI is one "request" of the audit trail, made by the administrator.
  // Malformed numbers are usage errors, told before the database is opened.
  const quota = integer(values.quota, '--quota');
  const grace = integer(values.grace, '--grace');
  const by: Actor = { actor: ADMIN_ACTOR, requestId: `cli-${randomUUID()}` };

  let config = loadConfig();
  if (!config.databaseUrl) {
    // A running service owns the embedded database; reach it through its server instead of opening the folder.
    const running = await findRunningEmbeddedDatabase(config.dataDir, TOOL_WAIT_MS);
    if (running) config = loadConfig({ ...process.env, DATABASE_URL: running });
  }
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: ['error', 'warn'] });
  try {
    if (group === 'audit') {
      // Query strings, as the route receives them, so the same conversions and checks apply.
      const query = await checked(
        AuditQueryDto,
        Object.fromEntries(
          Object.entries({
            since: values.since,
            actor: values.actor,
            name: values.name,
            page: values.page,
            size: values.size,
          }).filter(([, v]) => v !== undefined),
        ),
        'query',
      );
      return JSON.stringify(await app.get(AuditService).search(query), null, 2);
    }
    const keys = app.get(KeysService);
    switch (command) {
      case 'create': {
        const dto = await checked(CreateApiKeyDto, {
          name: values.name,
          parentNames: values.parent,
          quota,
          expiresAt: values.expires,
        });
        const created = await keys.issue(dto, by);
        if (values.json) return JSON.stringify(created, null, 2);
        return [
          `API key ${created.id} for ${created.parentNames.join(', ')} (quota ${created.quota})`,
          '',
          `  ${created.key}`,
          '',
          'Store it now: it is not shown again and only its SHA-256 digest is kept.',
        ].join('\n');
      }
      case 'list':
        return JSON.stringify(await keys.list(), null, 2);
      case 'update': {
        if (!id) throw new UsageError('keys update needs the key id');
        const { id: keyId } = await checked(IdParams, { id });
        const dto = await checked(UpdateApiKeyDto, {
          name: values.name,
          parentNames: values.parent,
          quota,
          expiresAt: values['no-expiry'] ? null : values.expires,
        });
        return JSON.stringify(await keys.update(keyId, dto, by), null, 2);
      }
      case 'revoke': {
        if (!id) throw new UsageError('keys revoke needs the key id');
        const { id: keyId } = await checked(IdParams, { id });
        await keys.revoke(keyId, by);
        return `revoked ${keyId}`;
      }
      case 'rotate': {
        if (!id) throw new UsageError('keys rotate needs the key id');
        const { id: keyId } = await checked(IdParams, { id });
        const dto = await checked(RotateApiKeyDto, { graceSeconds: grace });
        const rotated = await keys.rotate(keyId, dto, by);
        if (values.json) return JSON.stringify(rotated, null, 2);
        const graceSeconds = dto.graceSeconds ?? 0;
        return [
          `API key ${rotated.id} has a new secret (scope ${rotated.parentNames.join(', ')}, ${rotated.used}/${rotated.quota} used)`,
          '',
          `  ${rotated.key}`,
          '',
          graceSeconds > 0
            ? `The old secret keeps working for ${graceSeconds} s, then stops: hand the new one over before then.`
            : 'The old secret no longer works.',
          'Store the new one now: it is not shown again and only its SHA-256 digest is kept.',
        ].join('\n');
      }
      default:
        throw new UsageError(`unknown command keys ${command}`);
    }
  } finally {
    await app.close();
  }
}
