import { Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '../config/app-config';
import { rootLogger } from './logger';

/**
 * Nest's own logger through pino (main.ts calls app.useLogger). pino-http itself is mounted by configureApp
 * before body parsing, so that refused bodies are logged too; this module only binds each request's logger
 * for the Nest Logger calls made while handling it (`useExisting`).
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        pinoHttp: { logger: rootLogger(config) },
        useExisting: true,
        forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
      }),
    }),
  ],
})
export class LoggingModule {}
