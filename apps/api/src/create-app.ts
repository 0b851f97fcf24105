import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  configureHttp,
  createFastifyAdapter,
  createHttpLogging,
  createPinoLogger,
  type DestinationStream,
} from '@plantstore/adapters-http';
import { AppModule } from './app.module.js';
import type { AppConfig } from './config.js';

/** The whole application, configured exactly as in production; main.ts and the e2e suite share it. */
export async function createApp(
  config: AppConfig,
  options: { logDestination?: DestinationStream } = {},
): Promise<NestFastifyApplication> {
  const logging = createHttpLogging(createPinoLogger(config.logLevel, options.logDestination));
  const adapter = createFastifyAdapter(logging.pino, {
    requestTimeoutMs: config.requestTimeoutMs,
    keepAliveTimeoutMs: config.keepAliveTimeoutMs,
    maxConnections: config.maxConnections,
    tls: config.tls && { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) },
  });
  // The JSON logger is Nest's from its first line, so a start that fails writes no other kind.
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    bodyParser: false,
    logger: logging.nestLogger,
    abortOnError: false,
  });
  configureHttp(app);
  return app;
}
