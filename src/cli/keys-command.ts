import { randomUUID } from 'node:crypto';
import { DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { AuditModule } from '../audit/audit.module';
import { AuditService } from '../audit/audit.service';
import { ADMIN_ACTOR, type Actor } from '../audit/audit.types';
import { AuditQueryDto } from '../audit/dto/audit-query.dto';
import { CliFailure, type CliResult, UsageError } from '../common/command-line';
import { IdParams } from '../common/validation/id-params.dto';
import { AppConfig, loadConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { findRunningEmbeddedDatabase, TOOL_WAIT_MS } from '../database/embedded-database';
import { CreateApiKeyDto, RotateApiKeyDto, UpdateApiKeyDto } from '../admin/dto/api-key.dto';
import { AdminModule } from '../admin/admin.module';
import { KeysService } from '../admin/keys.service';
import type { KeysArgs } from './keys-options';
import { validated } from './route-validation';

@Module({})
class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: CliModule, imports: [ConfigModule.forRoot(config), DatabaseModule, AdminModule, AuditModule] };
  }
}

/** What a command does once its arguments hold, with the service's providers, as the administrator `by`. */
type Task = (app: INestApplicationContext, by: Actor) => Promise<string>;

/** The routes' fields by the options that fill them, so a refused value is named as the user typed it. */
const FLAGS = {
  id: 'ID',
  name: '--name',
  parentNames: '--parent',
  quota: '--quota',
  expiresAt: '--expires',
  graceSeconds: '--grace',
  since: '--since',
  actor: '--actor',
  page: '--page',
  size: '--size',
} as const;

/** The HTTP routes' own validation, so the CLI accepts and refuses exactly what they do. */
const checked = <T extends object>(cls: new () => T, plain: object, type: 'body' | 'query' = 'body') =>
  validated(cls, plain, type, FLAGS);

/** `keys …` and `audit` (parsed by parseKeys): the admin routes' use cases on the service's own database. */
export async function runKeys(args: KeysArgs): Promise<CliResult> {
  const task = await taskOf(args);
  // One run of the CLI is one "request" of the audit trail, made by the administrator.
  const by: Actor = { actor: ADMIN_ACTOR, requestId: `cli-${randomUUID()}` };
  const app = await openService();
  try {
    return { output: await task(app, by), exitCode: 0 };
  } finally {
    await app.close();
  }
}

/** The command's work, its arguments checked first: a usage error is told before any database is opened. */
async function taskOf({ group, command, id, values, quota, grace }: KeysArgs): Promise<Task> {
  if (group === 'audit') {
    // Query strings, as the route receives them, so the same conversions and checks apply.
    const { since, actor, name, page, size } = values;
    const given = Object.entries({ since, actor, name, page, size }).filter(([, v]) => v !== undefined);
    const query = await checked(AuditQueryDto, Object.fromEntries(given), 'query');
    return async (app) => JSON.stringify(await app.get(AuditService).search(query), null, 2);
  }
  switch (command) {
    case 'create': {
      const plain = { name: values.name, parentNames: values.parent, quota, expiresAt: values.expires };
      const dto = await checked(CreateApiKeyDto, plain);
      return async (app, by) => {
        const created = await app.get(KeysService).issue(dto, by);
        if (values.json) return JSON.stringify(created, null, 2);
        return [
          `API key ${created.id} for ${created.parentNames.join(', ')} (quota ${created.quota})`,
          '',
          `  ${created.key}`,
          '',
          'Store it now: it is not shown again and only its SHA-256 digest is kept.',
        ].join('\n');
      };
    }
    case 'list':
      return async (app) => JSON.stringify(await app.get(KeysService).list(), null, 2);
    case 'update': {
      const { id: keyId } = await checked(IdParams, { id });
      const expiresAt = values['no-expiry'] ? null : values.expires;
      const dto = await checked(UpdateApiKeyDto, { name: values.name, parentNames: values.parent, quota, expiresAt });
      return async (app, by) => JSON.stringify(await app.get(KeysService).update(keyId, dto, by), null, 2);
    }
    case 'revoke': {
      const { id: keyId } = await checked(IdParams, { id });
      return async (app, by) => {
        await app.get(KeysService).revoke(keyId, by);
        return `revoked ${keyId}`;
      };
    }
    case 'rotate': {
      const { id: keyId } = await checked(IdParams, { id });
      const dto = await checked(RotateApiKeyDto, { graceSeconds: grace });
      return async (app, by) => {
        const rotated = await app.get(KeysService).rotate(keyId, dto, by);
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
      };
    }
    default:
      throw new UsageError(`unknown command keys ${command}`);
  }
}

/** The service's providers on its database: DATABASE_URL, or the embedded database in DATA_DIR. */
async function openService(): Promise<INestApplicationContext> {
  let config = loadConfig();
  if (config.databaseUrl) {
    await mustReach(config);
  } else {
    // A running service owns the embedded database; reach it through its server instead of opening the folder.
    const running = await findRunningEmbeddedDatabase(config.dataDir, TOOL_WAIT_MS);
    if (running) config = loadConfig({ ...process.env, DATABASE_URL: running });
  }
  // Silent and never aborting: a failure is the CLI's one line, not Nest's log lines and ExceptionHandler dump.
  return NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: false, abortOnError: false });
}

/**
 * DATABASE_URL answers one connection within DATABASE_CONNECT_TIMEOUT_MS, or the user is told what to check:
 * asked before NestJS starts, whose TypeORM module would retry for seconds and log each attempt.
 */
async function mustReach(config: AppConfig): Promise<void> {
  const url = config.databaseUrl!;
  const client = new Client({ connectionString: url, connectionTimeoutMillis: config.database.connectTimeoutMs });
  try {
    await client.connect();
  } catch (e) {
    throw unreachable(url, e);
  }
  await client.end();
}

/** Where and why in a few words: the host and port only, as the URL may hold a password. */
function unreachable(url: string, e: unknown): CliFailure {
  const target = URL.canParse(url) ? new URL(url) : undefined;
  const where = target ? `${target.hostname}:${target.port || 5432}` : 'DATABASE_URL';
  const { code, message } = e as { code?: string; message?: string };
  // A system error's code (ECONNREFUSED) says it in a word; PostgreSQL's refusals say theirs in a line.
  let why = (/^E[A-Z]+$/.test(code ?? '') ? code : message?.split('\n')[0]) || String(e);
  for (const secret of target?.password ? [target.password, decoded(target.password)] : []) {
    why = why.replaceAll(secret, '***');
  }
  return new CliFailure(
    `cannot reach the database at ${where} (${why}): check DATABASE_URL and that PostgreSQL is running`,
  );
}

/** A URL component as typed once decoded, or as it is when it does not decode. */
function decoded(component: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    return component;
  }
}
