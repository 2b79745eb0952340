import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { ADMIN_ACTOR, type Actor } from '../audit/audit.types';
import { ApiProblem } from '../common/http/openapi';
import { requestIdOf } from '../common/http/request-id';
import { AuthenticatedKey } from './api-key';
import { AdminGuard, ApiKeyGuard, KeyedRequest } from './guards';

export const API_KEY_SCHEME = 'x-auth-token';
export const ADMIN_SCHEME = 'x-admin-token';
/** Metadata of the routes that take an API key (ApiKeyAuth), for whoever charges or logs by key. */
export const KEYED_ROUTE = 'auth:keyed-route';

/** Guard plus OpenAPI metadata for routes that need an API key; marks the route KEYED_ROUTE. */
export function ApiKeyAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(KEYED_ROUTE, true),
    UseGuards(ApiKeyGuard),
    ApiSecurity(API_KEY_SCHEME),
    ApiProblem(401, 'UNAUTHORIZED: missing, unknown, revoked or expired API key'),
  );
}

/** Guard plus OpenAPI metadata for the administration routes. */
export function AdminAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(AdminGuard),
    ApiSecurity(ADMIN_SCHEME),
    ApiProblem(401, 'UNAUTHORIZED: missing or wrong x-admin-token'),
    ApiProblem(404, 'NOT_FOUND: admin routes are off (no ADMIN_TOKEN configured), or no such item'),
  );
}

/** The key that ApiKeyGuard authenticated. */
export const CurrentApiKey = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthenticatedKey => {
  return ctx.switchToHttp().getRequest<KeyedRequest>().apiKey!;
});

/**
 * Who the audit trail records for this request: the key that ApiKeyGuard admitted, or `admin` after
 * AdminGuard; and the request id. Only for routes behind one of the two guards.
 */
export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor => {
  const req = ctx.switchToHttp().getRequest<KeyedRequest>();
  const actor = req.apiKey?.id ?? (req.admin ? ADMIN_ACTOR : undefined);
  if (actor === undefined) throw new Error('CurrentActor needs ApiKeyAuth or AdminAuth on the route');
  return { actor, requestId: requestIdOf(req) };
});
