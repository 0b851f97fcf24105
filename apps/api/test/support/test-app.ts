import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { nodeTokenSecrets, TypeOrmTokenRepository, type DataSource } from '@plantstore/adapters-persistence';
import { IssueToken, RevokeToken, systemClock, type Scope } from '@plantstore/domain';
import { loadConfig, type AppConfig } from '../../src/config.js';
import { createApp } from '../../src/create-app.js';
import { DATA_SOURCE } from '../../src/di-tokens.js';

export interface TestApp {
  readonly url: string;
  readonly app: NestFastifyApplication;
  readonly dataSource: DataSource;
  readonly databasePath: string;
  readonly config: AppConfig;
  issueToken(options?: { scopes?: Scope[] }): Promise<{ id: string; token: string }>;
  revokeToken(id: string): Promise<void>;
  /** Rows of the plant table, ids as exact decimal text. */
  plants(): Promise<Array<{ id: string; name: string; tag: string | null }>>;
  close(): Promise<void>;
}

/**
 * The real AppModule, configured by createApp exactly as main.ts does, on a fresh SQLite
 * file in a temp dir, listening on an ephemeral 127.0.0.1 port.
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-e2e-'));
  const databasePath = join(dir, 'plantstore.sqlite');
  const config = loadConfig({ DATABASE_URL: `sqlite:${databasePath}`, LOG_LEVEL: 'silent', ...env });
  if (config.database.engine !== 'sqlite' || !config.database.path.startsWith(tmpdir())) {
    // Never run the destructive suite against a database someone might care about.
    throw new Error(`refusing to run e2e tests against ${config.database.engine === 'sqlite' ? config.database.path : 'a non-test database'}`);
  }
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const dataSource = app.get<DataSource>(DATA_SOURCE);
  const tokens = new TypeOrmTokenRepository(dataSource);
  return {
    url: (await app.getUrl()).replace('[::1]', '127.0.0.1'),
    app,
    dataSource,
    databasePath,
    config,
    async issueToken(options = {}) {
      const issued = await new IssueToken(tokens, nodeTokenSecrets, systemClock).execute({ name: 'e2e', scopes: options.scopes });
      return { id: issued.token.id, token: issued.plaintext };
    },
    revokeToken: (id) => new RevokeToken(tokens, systemClock).execute(id),
    plants: () => dataSource.query('SELECT CAST(id AS TEXT) AS id, name, tag FROM plant ORDER BY id'),
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
