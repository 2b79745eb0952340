import 'reflect-metadata';
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp, mountSwagger } from './app.setup';
import { runPrimary } from './cluster';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import { rootLogger } from './logging/logger';

function configOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
}

async function bootstrap(config: AppConfig): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
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
}

const config = configOrExit();
if (config.workers > 1 && cluster.isPrimary) runPrimary(config.workers, rootLogger(config));
else void bootstrap(config);
