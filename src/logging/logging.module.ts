import { Global, Module } from '@nestjs/common';
import { Logger, PARAMS_PROVIDER_TOKEN, Params, PinoLogger } from 'nestjs-pino';
import { AppConfig } from '../config/app-config';
import { LogOutput } from './logger';

/**
 * Nest's own logger through pino (serve.ts calls app.useLogger): nestjs-pino's Logger over this application's
 * root logger (LogOutput), without its per-request middleware. The request logger that configureApp mounts
 * (before body parsing, so that refused bodies are logged too) writes to the same LogOutput.
 */
@Global()
@Module({
  providers: [
    { provide: LogOutput, inject: [AppConfig], useFactory: (config: AppConfig) => new LogOutput(config) },
    {
      provide: PARAMS_PROVIDER_TOKEN,
      inject: [LogOutput],
      useFactory: (output: LogOutput): Params => ({ pinoHttp: { logger: output.root } }),
    },
    PinoLogger,
    Logger,
  ],
  exports: [LogOutput, PinoLogger, Logger],
})
export class LoggingModule {}
