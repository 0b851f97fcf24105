import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Lifecycle } from '@plantstore/adapters-http';

/**
 * SIGTERM/SIGINT: readiness turns 503 and new requests are refused at once, the listener
 * stops, in-flight requests finish (at most `timeoutMs`, then their connections are cut),
 * the database closes after them, and the process exits 0. Nest's own enableShutdownHooks
 * re-raises the signal, which would make the exit status 143 instead.
 */
export function exitGracefullyOnSignals(app: NestFastifyApplication, timeoutMs: number): void {
  const logger = new Logger('Shutdown');
  let started = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    logger.log(`${signal} received: draining (at most ${timeoutMs} ms)`);
    app.get(Lifecycle).beginShutdown();
    const server = app.getHttpServer();
    const deadline = setTimeout(() => {
      logger.warn('shutdown timeout reached: closing the remaining connections');
      server.closeAllConnections();
    }, timeoutMs);
    deadline.unref();
    try {
      await app.close();
      logger.log('stopped');
      process.exitCode = 0;
    } catch (error) {
      logger.error(`shutdown failed: ${(error as Error).message}`);
      process.exitCode = 1;
    } finally {
      clearTimeout(deadline);
      // Anything still holding the loop (a stuck socket) must not keep a stopped server alive.
      setTimeout(() => process.exit(), 1_000).unref();
    }
  };
  process.once('SIGTERM', (signal) => void shutdown(signal));
  process.once('SIGINT', (signal) => void shutdown(signal));
}
