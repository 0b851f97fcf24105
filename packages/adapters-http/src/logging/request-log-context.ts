import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/**
 * The logger of the request being handled: Fastify's child of the process logger, bound to
 * the request's reqId (and to its `cause`, see log-cause.ts). Nest Logger calls made while a
 * request is handled write through it (pino-logger.ts), so each of their lines has the reqId.
 */
const requestLoggers = new AsyncLocalStorage<Logger>();

export function currentRequestLogger(): Logger | undefined {
  return requestLoggers.getStore();
}

/**
 * A Fastify hook rather than nestjs-pino's Nest middleware: the middleware needed middie and
 * Nest's middleware runner on every request, about a tenth of a create's CPU, to do this.
 * The context set here lasts through the later hooks, the guards, the pipes and the handler,
 * awaits included.
 */
export function bindRequestLoggers(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => requestLoggers.run(request.log as Logger, done));
}
