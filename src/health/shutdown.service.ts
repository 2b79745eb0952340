import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { onResponseEnd } from '../common/http/response-end';
import { AppConfig } from '../config/app-config';

/**
 * Graceful shutdown. On SIGTERM (Nest's shutdown hooks) readiness turns false at once; after
 * SHUTDOWN_DELAY_SECONDS (time for the gateway to see it) the listening socket closes, so new connections are
 * refused; requests in flight then have SHUTDOWN_GRACE_SECONDS to finish, each answered with
 * `Connection: close`. Only after that do the later hooks close the database pool and Redis.
 */
@Injectable()
export class ShutdownService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Shutdown');
  private drainingSince?: number;
  private inFlight = 0;

  constructor(
    private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  /** Express middleware: counts requests in flight, and ends keep-alive once draining. */
  readonly track = (_req: Request, res: Response, next: NextFunction): void => {
    this.inFlight += 1;
    onResponseEnd(res, () => (this.inFlight -= 1));
    if (this.draining) res.setHeader('Connection', 'close');
    next();
  };

  /** Readiness false from now on; exposed for tests that check readiness without stopping the app. */
  beginDraining(): void {
    this.drainingSince ??= Date.now();
  }

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    if (this.draining) return;
    this.beginDraining();
    const { delaySeconds, graceSeconds } = this.config.shutdown;
    this.logger.log(`${signal ?? 'close'}: readiness is false; refusing new connections in ${delaySeconds} s`);
    if (delaySeconds > 0) await sleep(delaySeconds * 1000);

    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server?.listening) return;
    server.close();
    const deadline = Date.now() + graceSeconds * 1000;
    // Keep-alive connections close as soon as they are idle; busy ones when their response is sent.
    while (this.inFlight > 0 && Date.now() < deadline) {
      server.closeIdleConnections();
      await sleep(20);
    }
    if (this.inFlight > 0) {
      this.logger.warn(`${this.inFlight} request(s) still running after ${graceSeconds} s; closing their connections`);
      server.closeAllConnections();
    } else {
      server.closeIdleConnections();
      this.logger.log(`requests drained in ${Date.now() - this.drainingSince!} ms`);
    }
  }
}
