import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { configureHttp, createFastifyAdapter } from '@plantstore/adapters-http';
import { AppModule } from './app.module.js';
import type { AppConfig, LogLevel } from './config.js';

const NEST_LEVELS: Record<LogLevel, Array<'fatal' | 'error' | 'warn' | 'log' | 'debug' | 'verbose'>> = {
  silent: [],
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  trace: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

/** The whole application, configured exactly as in production; main.ts and the e2e suite share it. */
export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config),
    createFastifyAdapter({ requestTimeoutMs: config.requestTimeoutMs, keepAliveTimeoutMs: config.keepAliveTimeoutMs }),
    { bodyParser: false, logger: NEST_LEVELS[config.logLevel], abortOnError: false },
  );
  configureHttp(app);
  return app;
}
