import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DomainError, ValidationFailedError } from './common/errors';
import { IdParams } from './common/id-params.dto';
import { AppValidationPipe } from './common/validation.pipe';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { findRunningEmbeddedDatabase } from './database/embedded-database';
import { IMPORT_USAGE, runImport } from './import/import-command';
import { CreateApiKeyDto, UpdateApiKeyDto } from './keys/dto/api-key.dto';
import { KeysModule } from './keys/keys.module';
import { KeysService } from './keys/keys.service';

const USAGE = `Usage: npm run cli -- <command>

  keys create --name NAME --parent NAME [--parent NAME …] [--quota N] [--expires ISO-8601]
      Issues a key and prints it once (with --json, as JSON).
  keys list
  keys update ID [--name NAME] [--parent NAME …] [--quota N] [--expires ISO-8601 | --no-expiry]
  keys revoke ID

The keys commands use DATABASE_URL, or else the embedded database in DATA_DIR (through the running service
when there is one).

${IMPORT_USAGE}`;

@Module({})
class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: CliModule, imports: [ConfigModule.forRoot(config), DatabaseModule, KeysModule] };
  }
}

/** The HTTP routes' own validation (the global pipe), so the CLI accepts and refuses exactly what they do. */
async function checked<T extends object>(cls: new () => T, plain: object): Promise<T> {
  try {
    return (await new AppValidationPipe().transform(plain, { type: 'body', metatype: cls })) as T;
  } catch (e) {
    if (!(e instanceof ValidationFailedError)) throw e;
    throw new Error((e.errors ?? []).map((f) => `${f.field}: ${f.message}`).join('\n'));
  }
}

function integer(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`${flag} must be a whole number`);
  return Number(value);
}

async function run(argv: string[]): Promise<string> {
  // import talks to a service over HTTP: no database, no application context.
  if (argv[0] === 'import') {
    const { output, exitCode } = await runImport(argv.slice(1));
    process.exitCode = exitCode;
    return output;
  }
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
    const running = await findRunningEmbeddedDatabase(config.dataDir);
    if (running) config = loadConfig({ ...process.env, DATABASE_URL: running });
  }
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: ['error', 'warn'] });
  try {
    const keys = app.get(KeysService);
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
        const { id: keyId } = await checked(IdParams, { id });
        const dto = await checked(UpdateApiKeyDto, {
          name: values.name,
          parentNames: values.parent,
          quota: integer(values.quota, '--quota'),
          expiresAt: values['no-expiry'] ? null : values.expires,
        });
        return JSON.stringify(await keys.update(keyId, dto), null, 2);
      }
      case 'revoke': {
        if (!id) throw new Error('keys revoke needs the key id');
        const { id: keyId } = await checked(IdParams, { id });
        await keys.revoke(keyId);
        return `revoked ${keyId}`;
      }
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
