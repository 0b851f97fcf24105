import type { LoggerService } from '@nestjs/common';
import { pino, type DestinationStream, type Logger } from 'pino';

/** The levels LOG_LEVEL accepts, most severe first; `silent` writes nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type { DestinationStream, Logger as PinoLogger };

export const PINO_LOGGER = Symbol('PinoLogger');

/**
 * JSON lines on stdout, written asynchronously so logging stays off the request's path.
 * Nothing here ever logs headers; the redaction is a second line of defence.
 */
export function createPinoLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'plantstore', pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['authorization', 'headers.authorization', 'req.headers.authorization', 'token'], censor: '[redacted]' },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/** Nest's own messages (start-up, errors) as pino lines, with their context as a field. */
export class PinoLoggerService implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    // Nest passes (message, stack?, context?).
    const [stack, ...others] = rest;
    this.write('error', message, others, typeof stack === 'string' ? { stack } : {});
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: Exclude<LogLevel, 'silent'>, message: unknown, rest: unknown[], extra: object = {}): void {
    const context = rest.at(-1);
    const fields = { ...extra, ...(typeof context === 'string' ? { context } : {}) };
    if (message instanceof Error) this.logger[level]({ ...fields, err: { type: message.name, message: message.message, stack: message.stack } }, message.message);
    else this.logger[level](fields, typeof message === 'string' ? message : JSON.stringify(message));
  }
}
