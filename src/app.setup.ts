import { INestApplication, Logger, RequestMethod } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { NextFunction, Request, RequestHandler, Response } from 'express';
import { ADMIN_SCHEME, API_KEY_SCHEME } from './auth/decorators';
import { inputSafetyMiddleware } from './common/validation/input-safety';
import { requireJsonBody } from './common/http/media-type';
import { answerMalformedRequests } from './common/http/malformed-http';
import { FieldErrorDto, ProblemDto } from './common/http/problem';
import { ProblemFilter } from './common/http/problem.filter';
import { parseQuery } from './common/http/query';
import { requestIdMiddleware } from './common/http/request-id';
import { SECURITY_POLICIES, securityHeaders } from './common/http/security-headers';
import { AppValidationPipe } from './common/validation/validation.pipe';
import { AppConfig } from './config/app-config';
import { ShutdownService } from './health/shutdown.service';
import { httpLogger, LogOutput } from './logging/logger';
import { httpMetrics } from './metrics/http-metrics';
import { Metrics } from './metrics/metrics';
import { PORTAL_COOKIE, PORTAL_SESSION_SCHEME } from './portal/portal-auth';
import { isPortalPage, PORTAL_SECURITY_POLICY, portalNoStore } from './portal/portal-http';
import { ccipCorsUnder } from './resolution/ccip-cors';
import { CCIP_READ_PATH } from './resolution/resolution.service';

export const API_PREFIX = 'api/v1';
/** Routes served outside /api/v1, where operators and probes expect them. */
const UNPREFIXED = [
  { path: 'health/live', method: RequestMethod.GET },
  { path: 'health/ready', method: RequestMethod.GET },
  { path: 'metrics', method: RequestMethod.GET },
  { path: '/', method: RequestMethod.GET },
  { path: 'guides/:file', method: RequestMethod.GET },
  { path: 'portal', method: RequestMethod.ALL },
  { path: 'portal/{*path}', method: RequestMethod.ALL },
];
const DOCS_PATH = /^\/docs(-json|\/|$)/;

/** The shutdown tracker when the application has one (not in the OpenAPI generator's preview mode). */
function shutdownTracker(app: NestExpressApplication): RequestHandler | undefined {
  try {
    return app.get(ShutdownService, { strict: false }).track;
  } catch {
    return undefined;
  }
}

/** The application's metrics (MetricsModule's), or its own for an application without that module. */
function metricsOf(app: NestExpressApplication): Metrics {
  try {
    return app.get(Metrics, { strict: false });
  } catch {
    return new Metrics();
  }
}

/**
 * The application's log output (LoggingModule's), or one of its own for an application without that module
 * (controller specs) or without built providers (the OpenAPI generator's preview mode).
 */
function logOutput(app: NestExpressApplication, config: AppConfig): LogOutput {
  try {
    return app.get(LogOutput, { strict: false }) ?? new LogOutput(config);
  } catch {
    return new LogOutput(config);
  }
}

/**
 * Everything serve.ts, the tests and the OpenAPI generator share: request id, CORS, shutdown tracking, request
 * log, metrics, security headers, the CCIP-Read gateway's CORS, the body's media type, input safety of the query
 * and headers, errors, validation, prefix. All of it runs before the modules' middleware, where bodies are read
 * (AppModule's 64 KB reader, or a module's own), so it also sees requests whose bodies are refused. Signals are
 * serve.ts's business.
 */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  const filter = new ProblemFilter();
  answerMalformedRequests(app.getHttpServer());
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', parseQuery);
  if (config.trustProxy === true) {
    new Logger('Config').warn(
      'TRUST_PROXY=true believes every X-Forwarded-For entry: behind a gateway that appends to the header, a ' +
        'client chooses its own address (and rate-limit budget). Set the hop count instead (TRUST_PROXY=1 behind one gateway).',
    );
  }
  app.disable('x-powered-by');
  // No ETag: Express would hash every body (answers are computed, resolution's signed, per request) for conditional
  // requests that API clients do not make.
  app.set('etag', false);
  const track = shutdownTracker(app);
  // What every request passes, in this order.
  const everyRequest: RequestHandler[] = [
    ...(track ? [track] : []),
    httpLogger(logOutput(app, config)),
    httpMetrics(metricsOf(app)),
    securityHeaders({ ...SECURITY_POLICIES, portal: PORTAL_SECURITY_POLICY }, (req) =>
      DOCS_PATH.test(req.path) ? 'docs' : isPortalPage(req.path) ? 'portal' : 'api',
    ),
    portalNoStore,
    // The CCIP-Read gateway answers browsers of any origin (before the body parser: a preflight has no body).
    ccipCorsUnder(`/${API_PREFIX}/${CCIP_READ_PATH}`),
    requireJsonBody,
    // The query and headers; bodies are read, and held to the same rules, by the modules' middleware (AppModule's
    // 64 KB reader, or a module's own for its routes).
    inputSafetyMiddleware,
  ];
  if (config.corsOrigin) {
    // Nest's CORS middleware between the request id and the rest, as it always was (a preflight it answers
    // carries the id and is logged).
    app.use(requestIdMiddleware);
    app.enableCors({ origin: config.corsOrigin.split(',').map((o) => o.trim()) });
    app.use(...everyRequest);
  } else app.use(requestIdMiddleware, ...everyRequest);
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => filter.respond(err, req, res));
  app.setGlobalPrefix(API_PREFIX, { exclude: UNPREFIXED });
  app.useGlobalFilters(filter);
  app.useGlobalPipes(new AppValidationPipe());
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('ENS subname service')
    .setDescription(
      'Offchain ENS subnames (create, update, read, search, delete) with per-key quotas, and EIP-712 signed ' +
        'mint parameters for the Namespace mint contract. Errors are RFC 9457 problem JSON. Requests are rate ' +
        'limited per API key on keyed routes and per client address elsewhere: answers carry RateLimit-Limit, ' +
        'RateLimit-Remaining, RateLimit-Reset (seconds) and RateLimit-Policy; a refusal is 429 RATE_LIMITED ' +
        "with Retry-After. Every answer carries x-request-id (the caller's, when sane).\n\n" +
        'Getting a key: sign in with a wallet on the developer portal (/portal) and issue one for a parent name ' +
        'you control; or, as the operator, `npm run cli -- keys create --name NAME --parent oak.eth`, or ' +
        'POST /api/v1/admin/api-keys with x-admin-token. Three auth schemes: `x-auth-token` (header, the API ' +
        "key, for subname writes and exports), `x-admin-token` (header, the operator's ADMIN_TOKEN, for " +
        "/admin routes) and `portal-session` (the portal's session cookie, for /portal/api). The examples use the " +
        "label try-it, so Try it out does not overwrite the README tour's alice.oak.eth.",
    )
    .setVersion('1.0.0')
    // Swagger UI groups by these, in this order (the routes' own order is the router's: the busiest first).
    .addTag('operations', 'Liveness, readiness and metrics')
    .addTag('subnames', 'Offchain subnames and their records, by API key')
    .addTag('admin', 'API keys, the audit log and mint listings')
    .addTag('mint', 'Signed Namespace mint parameters')
    .addTag('primary-names', 'Primary names chosen by signature')
    .addTag('holders', "A subname's owner acting by signature under the parent's policy")
    .addTag('resolution', 'The CCIP-Read gateway and the resolver status')
    .addTag('portal', 'The developer portal, by wallet session')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-auth-token', description: 'API key' }, API_KEY_SCHEME)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-admin-token', description: 'Admin token' }, ADMIN_SCHEME)
    .addCookieAuth(
      PORTAL_COOKIE,
      { type: 'apiKey', in: 'cookie', description: 'Developer portal session (POST /portal/api/session)' },
      PORTAL_SESSION_SCHEME,
    )
    .build();
  return SwaggerModule.createDocument(app, config, { extraModels: [ProblemDto, FieldErrorDto] });
}

export function mountSwagger(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}
