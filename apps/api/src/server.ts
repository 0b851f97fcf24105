import { Logger } from '@nestjs/common';
import { createFailureLogger } from '@plantstore/adapters-http';
import { redactDatabaseUrl } from '@plantstore/adapters-persistence';
import { checkHost, ConfigError, loadConfig, type AppConfig } from './config.js';
import { createApp } from './create-app.js';
import { exitGracefullyOnSignals } from './graceful-shutdown.js';

async function configOrExit(): Promise<AppConfig> {
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
    await app.listen({ port: config.port, host: config.host, backlog: config.maxConnections });
    new Logger('PlantStore').log(`listening on ${await app.getUrl()} (database ${redactDatabaseUrl(config.database)})`);
  } catch (error) {
    createFailureLogger().fatal(`failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
