import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Wallets and dapps in browsers call the gateway from any origin (EIP-3668 clients fetch it directly), so its
 * routes allow every origin whatever CORS_ORIGIN says; they carry no credentials and no key.
 */
export function ccipCors(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  if (req.method !== 'OPTIONS') return next();
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
  res.setHeader('Access-Control-Max-Age', '86400');
  res.status(204).end();
}

/**
 * `ccipCors` for the requests at `mount` and below it, matched as Express matches a mount path (any case), the
 * rest passed on: one step of the application's own middleware instead of two router layers and Nest's
 * middleware proxy on every request.
 */
export function ccipCorsUnder(mount: string): RequestHandler {
  const prefix = mount.toLowerCase();
  return (req, res, next) => {
    const path = req.path.toLowerCase();
    return path === prefix || path.startsWith(`${prefix}/`) ? ccipCors(req, res, next) : next();
  };
}
