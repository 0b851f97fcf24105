import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp, type DestinationStream } from '@plantstore/adapters-http';
import { AppModule } from './app.module.js';
import type { AppConfig } from './config.js';

/** The whole application, configured exactly as in production; main.ts and the e2e suite share it. */
export function createApp(
  config: AppConfig,
  options: { logDestination?: DestinationStream } = {},
): Promise<NestFastifyApplication> {
  return createHttpApp(AppModule.forRoot(config), {
    logLevel: config.logLevel,
    logDestination: options.logDestination,
    requestTimeoutMs: config.requestTimeoutMs,
    keepAliveTimeoutMs: config.keepAliveTimeoutMs,
    maxConnections: config.maxConnections,
    tls: config.tls && { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) },
  });
}
