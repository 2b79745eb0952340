import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import type { Request } from 'express';

/** The client address as Express derives it under TRUST_PROXY, IPv6 grouped by /64 (one host's whole subnet). */
export function clientAddressOf(ip: string | undefined): string {
  return ip ? normalizeIp(ip) : 'unknown';
}

/** The client address that the rate limits charge, for a bound the service keeps itself. */
export const ClientAddress = createParamDecorator((_: unknown, ctx: ExecutionContext): string =>
  clientAddressOf(ctx.switchToHttp().getRequest<Request>().ip),
);
