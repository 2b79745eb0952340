import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { AuthModule } from './auth/auth.module';
import { ApiKeysService } from './auth/api-keys.service';
import { CreateApiKeyDto, UpdateApiKeyDto } from './auth/dto/api-key.dto';
import { DomainError } from './common/errors';
import { UuidParamPipe } from './common/uuid.pipe';
import { flattenValidationErrors } from './common/validation.pipe';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { findRunningEmbeddedDatabase, TOOL_WAIT_MS } from './database/embedded-database';

const USAGE = `Usage: npm run cli -- <command>

  keys create --name NAME --parent NAME [--parent NAME …] [--quota N] [--expires ISO-8601]
      Issues a key and prints it once (with --json, as JSON).
  keys list
  keys update ID [--name NAME] [--parent NAME …] [--quota N] [--expires ISO-8601 | --no-expiry]
  keys revoke ID

Uses DATABASE_URL, or else the embedded database in DATA_DIR (through the running service when there is one).`;

@Module({})
class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: CliModule, imports: [ConfigModule.forRoot(config), DatabaseModule, AuthModule] };
  }
}

async function checked<T extends object>(cls: new () => T, plain: object): Promise<T> {
  const dto = plainToInstance(cls, plain);
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) {
    throw new Error(
      flattenValidationErrors(errors)
        .map((e) => `${e.field}: ${e.message}`)
        .join('\n'),
    );
  }
  return dto;
}

function integer(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`${flag} must be a whole number`);
  return Number(value);
}

async function run(argv: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      parent: { type: 'string', multiple: true },
      quota: { type: 'string' },
      expires: { type: 'string' },
      'no-expiry': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, command, id] = positionals;
  if (values.help || group !== 'keys' || !command) return USAGE;

  let config = loadConfig();
  if (!config.databaseUrl) {
    // A running service owns the embedded database; reach it through its server instead of opening the folder.
    const running = await findRunningEmbeddedDatabase(config.dataDir, TOOL_WAIT_MS);
    if (running) config = loadConfig({ ...process.env, DATABASE_URL: running });
  }
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: ['error', 'warn'] });
  try {
    const keys = app.get(ApiKeysService);
    switch (command) {
      case 'create': {
        const dto = await checked(CreateApiKeyDto, {
          name: values.name,
          parentNames: values.parent,
          quota: integer(values.quota, '--quota'),
          expiresAt: values.expires,
        });
        const created = await keys.issue(dto);
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
        if (!id) throw new Error('keys update needs the key id');
        new UuidParamPipe().transform(id);
        const dto = await checked(UpdateApiKeyDto, {
          name: values.name,
          parentNames: values.parent,
          quota: integer(values.quota, '--quota'),
          expiresAt: values['no-expiry'] ? null : values.expires,
        });
        return JSON.stringify(await keys.update(id, dto), null, 2);
      }
      case 'revoke':
        if (!id) throw new Error('keys revoke needs the key id');
        new UuidParamPipe().transform(id);
        await keys.revoke(id);
        return `revoked ${id}`;
      default:
        return USAGE;
    }
  } finally {
    await app.close();
  }
}

run(process.argv.slice(2))
  .then((out) => console.log(out))
  .catch((e: unknown) => {
    if (e instanceof DomainError || e instanceof ConfigError || e instanceof Error) console.error(e.message);
    else console.error(e);
    process.exit(1);
  });
