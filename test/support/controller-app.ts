import { MiddlewareConsumer, Module, NestModule, type ModuleMetadata, type Provider, type Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { configureApp } from '../../src/app.setup';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import type { AuthenticatedKey } from '../../src/auth/api-key';
import { BODY_LIMIT, jsonReader, readBodyFirst } from '../../src/common/http/body-readers';
import { UnauthorizedError } from '../../src/common/errors';
import { AppConfig, loadConfig } from '../../src/config/app-config';

/** The one key the faked ApiKeysService admits, as `x-auth-token: good-key`. */
export const TEST_KEY: AuthenticatedKey = { id: 'key-1', keyPrefix: 'sns_test', parentNames: ['oak.eth'] };

/** The configured ADMIN_TOKEN, as `x-admin-token`; `env: { ADMIN_TOKEN: undefined }` turns the admin routes off. */
export const TEST_ADMIN_TOKEN = 'controller-admin-token';

/** What a spec may add: environment variables over the defaults, and modules a controller needs. */
export interface ControllerAppOptions {
  env?: NodeJS.ProcessEnv;
  imports?: ModuleMetadata['imports'];
}

/** AppModule's body reader, for controllers tested without AppModule. */
@Module({})
class BodyReaderModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(readBodyFirst(jsonReader(BODY_LIMIT))).forRoutes('*');
  }
}

/**
 * Controllers on their own with the app's real wiring (body parsers, validation pipe, problem filter, guards)
 * and faked services: routes, status codes and problem bodies in milliseconds, with no database.
 */
export async function controllerApp(
  controllers: Type[],
  providers: Provider[],
  { env = {}, imports = [] }: ControllerAppOptions = {},
): Promise<NestExpressApplication> {
  const keys: Pick<ApiKeysService, 'authenticate'> = {
    authenticate: (token?: string) =>
      token === 'good-key' ? Promise.resolve(TEST_KEY) : Promise.reject(new UnauthorizedError()),
  };
  const config = loadConfig({ LOG_LEVEL: 'silent', ADMIN_TOKEN: TEST_ADMIN_TOKEN, ...env });
  const module = await Test.createTestingModule({
    imports: [BodyReaderModule, ...imports],
    controllers,
    providers: [{ provide: ApiKeysService, useValue: keys }, { provide: AppConfig, useValue: config }, ...providers],
  }).compile();
  const app = module.createNestApplication<NestExpressApplication>({ logger: false });
  configureApp(app, config);
  await app.init();
  return app;
}
