import type { FastifyRequest } from 'fastify';
import type { PinoLogger } from './pino-logger.js';

/**
 * Names why a request is refused with 503 (disk full, lock timeout, database unreachable,
 * shutting down) on every later line of its logger, the request line included: an operator
 * tells the faults apart from the log alone. The cause is a fixed phrase, never a driver's
 * message (which may quote SQL or a connection string).
 */
export function logCause(request: FastifyRequest, cause: string): void {
  // Fastify's request logger is a pino child (createFastifyAdapter gives Fastify a pino logger).
  (request.log as PinoLogger).setBindings({ cause });
}
