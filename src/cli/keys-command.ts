import { randomUUID } from 'node:crypto';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuditModule } from '../audit/audit.module';
import { AuditService } from '../audit/audit.service';
import { ADMIN_ACTOR, type Actor } from '../audit/audit.types';
import { AuditQueryDto } from '../audit/dto/audit-query.dto';
import { CliFailure, type CliResult, UsageError } from '../common/command-line';
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
import type { KeysArgs } from './keys-options';

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

/** `keys …` and `audit` (parsed by parseKeys): the admin routes' use cases on the service's own database. */
export async function runKeys(args: KeysArgs): Promise<CliResult> {
  return { output: await keys(args), exitCode: 0 };
}

async function keys({ group, command, id, values, quota, grace }: KeysArgs): Promise<string> {
  // One run of the CLI is one "request" of the audit trail, made by the administrator.
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
        const { id: keyId } = await checked(IdParams, { id });
        await keys.revoke(keyId, by);
        return `revoked ${keyId}`;
      }
      case 'rotate': {
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
