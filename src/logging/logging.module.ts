import { Global, Module } from '@nestjs/common';
import { Logger, PARAMS_PROVIDER_TOKEN, Params, PinoLogger } from 'nestjs-pino';
import { AppConfig } from '../config/app-config';
import { rootLogger } from './logger';

/**
 * Nest's own logger through pino (serve.ts calls app.useLogger): nestjs-pino's Logger over the root logger,
 * without its per-request middleware. The request logger that configureApp mounts (before body parsing, so that
 * refused bodies are logged too) keeps the request id for the lines logged while handling it.
 */
@Global()
@Module({
  providers: [
    {
      provide: PARAMS_PROVIDER_TOKEN,
      inject: [AppConfig],
      useFactory: (config: AppConfig): Params => ({ pinoHttp: { logger: rootLogger(config) } }),
    },
    PinoLogger,
    Logger,
  ],
  exports: [PinoLogger, Logger],
})
export class LoggingModule {}
