import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { configureHttp, createFastifyAdapter, type DestinationStream } from '@plantstore/adapters-http';
import { AppModule } from './app.module.js';
import type { AppConfig } from './config.js';

/** The whole application, configured exactly as in production; main.ts and the e2e suite share it. */
export async function createApp(config: AppConfig, options: { logDestination?: DestinationStream } = {}): Promise<NestFastifyApplication> {
  const adapter = createFastifyAdapter({
    requestTimeoutMs: config.requestTimeoutMs,
    keepAliveTimeoutMs: config.keepAliveTimeoutMs,
    maxConnections: config.maxConnections,
    tls: config.tls && { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) },
  });
  // Logs are buffered until the pino logger is in place, so even start-up lines are JSON.
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, options.logDestination), adapter, {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  configureHttp(app);
  return app;
}
