import { Logger as NestPinoLogger, PinoLogger as NestPinoRequestLogger, type Params } from 'nestjs-pino';
import { pino, type DestinationStream, type Logger } from 'pino';
import { currentRequestLogger } from './request-log-context.js';

/** The levels LOG_LEVEL accepts, most severe first; `silent` writes nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type { DestinationStream, Logger as PinoLogger };

/** What every line of the process looks like: JSON, the level as a word, an ISO time. */
const LINE_FORMAT = {
  base: { service: 'plantstore', pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label: string) => ({ level: label }) },
  // Nothing here ever logs headers; the redaction is a second line of defence.
  redact: {
    paths: ['authorization', 'headers.authorization', 'req.headers.authorization', 'token'],
    censor: '[redacted]',
  },
};

/** JSON lines on stdout, written asynchronously so logging stays off the request's path. */
export function createPinoLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino({ ...LINE_FORMAT, level }, destination ?? pino.destination({ dest: 1, sync: false }));
}

/**
 * For the last line of a process that cannot start: on stderr, written before it returns, since
 * process.exit follows. The configuration may be what is wrong, so the level is fixed.
 */
export function createFailureLogger(): Logger {
  return pino({ ...LINE_FORMAT, level: 'info' }, pino.destination({ dest: 2, sync: true }));
}

/** One pino logger for the process: Fastify's and Nest's. */
export interface HttpLogging {
  readonly pino: Logger;
  /** For NestFactory.create's `logger`, so that Nest's very first line is already JSON. */
  readonly nestLogger: NestPinoLogger;
}

/**
 * The request logger is Fastify's: Fastify gives each request a child of `logger` bound to its
 * `reqId`, and every Nest Logger call made while the request is handled writes through that
 * child (request-log-context.ts); outside a request, through `logger` itself.
 */
export function createHttpLogging(logger: Logger): HttpLogging {
  const params: Params = { pinoHttp: { logger } };
  return { pino: logger, nestLogger: new QuietNestLogger(new RequestPinoLogger(params), params) };
}

/** nestjs-pino's logger, writing through the current request's logger when there is one. */
class RequestPinoLogger extends NestPinoRequestLogger {
  override get logger(): Logger {
    return currentRequestLogger() ?? super.logger;
  }
}

/**
 * Where Nest reports its own start-up, one line per module, controller and route: useful when
 * wiring is in doubt (LOG_LEVEL=debug), noise on every start. The server says once that it
 * listens, where, on which engine and version (apps/api/src/server.ts).
 */
const NEST_BOOTSTRAP_CONTEXTS: ReadonlySet<string> = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * Nest's logger, quieter in two ways. Its start-up lines go to debug instead of info. And when
 * a module fails to initialise, Nest's ExceptionHandler logs the error with its stack, then
 * (abortOnError: false) rethrows it to the caller, whose one fatal line says why the start
 * failed: two lines for one failure, one of them a stack trace, is what an operator should not
 * have to read past, so the first is dropped.
 */
class QuietNestLogger extends NestPinoLogger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams.at(-1);
    if (typeof context === 'string' && NEST_BOOTSTRAP_CONTEXTS.has(context)) this.debug(message, ...optionalParams);
    else super.log(message, ...optionalParams);
  }

  override error(message: unknown, ...optionalParams: unknown[]): void {
    if (optionalParams.at(-1) === 'ExceptionHandler') return;
    super.error(message, ...optionalParams);
  }
}
