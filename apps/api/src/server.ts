import { readFileSync } from 'node:fs';
import { Logger } from '@nestjs/common';
import { createFailureLogger } from '@plantstore/adapters-http';
import { redactDatabaseUrl } from '@plantstore/adapters-persistence';
import { checkHost, ConfigError, loadConfig, type AppConfig } from './config.js';
import { createApp } from './create-app.js';
import { exitGracefullyOnSignals } from './graceful-shutdown.js';
import { unsupportedRuntime } from './supported-runtime.js';

// The server's own version, read at run time so it cannot drift from package.json.
const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;
const ENGINE_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;

async function configOrExit(): Promise<AppConfig> {
  const runtimeProblem = unsupportedRuntime();
  if (runtimeProblem) {
    createFailureLogger().fatal(runtimeProblem);
    process.exit(2);
  }
  try {
    const config = loadConfig(process.env);
    await checkHost(config);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    createFailureLogger().fatal(`invalid configuration: ${error.message}`);
    process.exit(2);
  }
}

/** Starts the server; resolves once it listens. A failed start exits the process (1; 2 for a bad configuration). */
export async function startServer(): Promise<void> {
  try {
    const config = await configOrExit();
    const app = await createApp(config);
    exitGracefullyOnSignals(app, config.shutdownTimeoutMs);
    // The accept queue as deep as the connections the server takes (the kernel caps it at
    // net.core.somaxconn): with Node's default of 511, a burst of new connections fills it and
    // the kernel drops further SYNs, health probes' included, until a retransmit a second later.
    // Fastify announces every address it listens on (one line per interface on 0.0.0.0); at the
    // default level the server says it once instead, with what an operator asks first.
    const fastifyLog = app.getHttpAdapter().getInstance().log;
    const level = fastifyLog.level;
    if (level === 'info') fastifyLog.level = 'warn';
    try {
      await app.listen({ port: config.port, host: config.host, backlog: config.maxConnections });
    } finally {
      fastifyLog.level = level;
    }
    new Logger('PlantStore').log(
      `Plant Store ${VERSION} listening on ${await app.getUrl()}: ${ENGINE_NAMES[config.database.engine]} ${redactDatabaseUrl(config.database)}, Node ${process.version}`,
    );
  } catch (error) {
    createFailureLogger().fatal(`failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
