import 'reflect-metadata';
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp, mountSwagger } from './app.setup';
import { JsonReplyAdapter } from './common/http/json-reply.adapter';
import { AppConfig } from './config/app-config';
import { startupLine } from './home/startup-line';
import { LogOutput } from './logging/logger';
import { SubnameCache } from './subnames/subname-cache';

/** One serving process: the Nest application on `config.port` (main.ts decides whether this process serves). */
export async function serve(config: AppConfig): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), new JsonReplyAdapter(), {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  configureApp(app, config);
  mountSwagger(app);
  // SIGTERM/SIGINT: readiness off, drain (ShutdownService), close the pool, then exit 0.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  // A stray rejected promise is a bug to log, not a reason to drop every request in flight.
  process.on('unhandledRejection', (reason) =>
    new NestLogger('Process').error(`unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}`),
  );
  await app.listen(config.port, '0.0.0.0');
  // Idle keep-alive connections outlive the gateway's (commonly 60 s), so it never reuses one we just closed.
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  new NestLogger('Main').log(`listening on port ${config.port}; Swagger UI at /docs`);
  // The name filter's first build logs a line; wait for it (bounded: a huge table builds for a while) so that the
  // plain line below, the one a person starting the service reads, ends the start-up log (one per cluster).
  const names = app.get(SubnameCache, { strict: false }).names;
  for (const until = Date.now() + 5_000; !names.ready && Date.now() < until;)
    await new Promise((r) => setTimeout(r, 20));
  if (!cluster.isWorker || cluster.worker?.id === 1) app.get(LogOutput).writePlainLine(startupLine(config));
}
