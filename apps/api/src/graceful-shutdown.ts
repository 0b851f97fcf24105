import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Lifecycle } from '@plantstore/adapters-http';

/**
 * SIGTERM/SIGINT: readiness turns 503 and new requests are refused at once, responses still
 * being written say `Connection: close`, the listener stops, in-flight requests finish, the
 * database closes after them, and the process exits 0.
 *
 * `timeoutMs` is a hard bound on the time from the signal to the exit: when it passes, the
 * remaining connections are cut and the process exits, whatever still holds it (a request
 * that never finishes, a stuck socket). Nest's own enableShutdownHooks re-raises the signal,
 * which would make the exit status 143 instead.
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
    // Unref'd: it never keeps a drained process alive, and still fires while anything else does.
    setTimeout(() => {
      logger.warn(`shutdown timeout of ${timeoutMs} ms reached: cutting the remaining connections and exiting`);
      server.closeAllConnections();
      process.exit(0);
    }, timeoutMs).unref();
    try {
      await app.close();
      logger.log('stopped');
      process.exitCode = 0;
    } catch (error) {
      logger.error(`shutdown failed: ${(error as Error).message}`);
      process.exitCode = 1;
    }
  };
  process.once('SIGTERM', (signal) => void shutdown(signal));
  process.once('SIGINT', (signal) => void shutdown(signal));
}
