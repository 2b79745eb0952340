import { INestApplication, RequestMethod } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import express, { NextFunction, Request, Response } from 'express';
import { ADMIN_SCHEME, API_KEY_SCHEME } from './auth/decorators';
import { FieldErrorDto, ProblemDto } from './common/problem';
import { ProblemFilter } from './common/problem.filter';
import { requestIdMiddleware } from './common/request-id';
import { AppValidationPipe } from './common/validation.pipe';
import { AppConfig } from './config/app-config';

export const API_PREFIX = 'api/v1';
export const BODY_LIMIT = '64kb';
/** Routes served outside /api/v1, where operators and probes expect them. */
const UNPREFIXED = [
  { path: 'health/(.*)', method: RequestMethod.ALL },
  { path: 'health/live', method: RequestMethod.GET },
  { path: 'health/ready', method: RequestMethod.GET },
  { path: 'metrics', method: RequestMethod.GET },
];

/** Everything main.ts, the tests and the OpenAPI generator share: parsing, errors, validation, prefix. */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  const filter = new ProblemFilter();
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  app.use(requestIdMiddleware);
  app.use(express.json({ limit: BODY_LIMIT, strict: true, type: ['application/json', 'application/*+json'] }));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => filter.respond(err, req, res));
  if (config.corsOrigin) app.enableCors({ origin: config.corsOrigin.split(',').map((o) => o.trim()) });
  app.setGlobalPrefix(API_PREFIX, { exclude: UNPREFIXED });
  app.useGlobalFilters(filter);
  app.useGlobalPipes(new AppValidationPipe());
  app.enableShutdownHooks();
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('ENS subname service')
    .setDescription(
      'Offchain ENS subnames (create, update, read, search, delete) with per-key quotas, and EIP-712 signed ' +
        'mint parameters for the Namespace mint contract. Errors are RFC 9457 problem JSON.',
    )
    .setVersion('1.0.0')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-auth-token', description: 'API key' }, API_KEY_SCHEME)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-admin-token', description: 'Admin token' }, ADMIN_SCHEME)
    .build();
  return SwaggerModule.createDocument(app, config, { extraModels: [ProblemDto, FieldErrorDto] });
}

export function mountSwagger(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}
