import { tmpdir } from 'node:os';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SqlStore, type DataSource } from '@plantstore/adapters-persistence';
import { IssueToken, RevokeToken, systemClock, type Scope } from '@plantstore/domain';
import { loadConfig, type AppConfig } from '../../src/config.js';
import { createApp } from '../../src/create-app.js';
import { recordResponses } from './contract.js';
import { LogCapture } from './log-capture.js';
import { E2E_DATABASE_PREFIX, sqliteEngine, type EngineName, type TestDatabase, type TestEngine } from './engines.js';

export interface TestApp {
  readonly url: string;
  readonly app: NestFastifyApplication;
  readonly dataSource: DataSource;
  readonly engine: EngineName;
  /** The fresh database this app runs on (its DATABASE_URL is `database.url`). */
  readonly database: TestDatabase;
  /** The SQLite file; only for SQLite-specific tests (throws on PostgreSQL). */
  readonly databasePath: string;
  readonly config: AppConfig;
  /** Every log line the app wrote so far (captured at LOG_LEVEL trace unless the test sets another). */
  readonly logs: LogCapture;
  issueToken(options?: { scopes?: Scope[] }): Promise<{ id: string; token: string }>;
  revokeToken(id: string): Promise<void>;
  /** Rows of the plant table, ids as exact decimal text. */
  plants(): Promise<Array<{ id: string; name: string; tag: string | null }>>;
  close(): Promise<void>;
}

/**
 * The real AppModule, configured by createApp exactly as main.ts does, on a fresh database
 * of `engine` (a temp SQLite file by default, or a new PostgreSQL database), listening on an
 * ephemeral 127.0.0.1 port. close() stops the app and removes the database.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  engine: TestEngine = sqliteEngine,
): Promise<TestApp> {
  const database = await engine.createDatabase();
  try {
    return await launch(database, env, () => database.drop());
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/** A test app shared by the tests of one describe block, with a `plants:write` token issued for them. */
export interface SuiteApp extends TestApp {
  readonly token: string;
}

/**
 * The setup every e2e suite shares: starts the app (as startTestApp does) and issues a
 * token before the block's tests, and closes the app after them. Call it in a describe
 * block; the returned app is usable from the tests and the block's own hooks.
 */
export function useTestApp(env: Record<string, string> = {}, engine: TestEngine = sqliteEngine): SuiteApp {
  let started: TestApp | undefined;
  let token: string | undefined;
  beforeAll(async () => {
    started = await startTestApp(env, engine);
    ({ token } = await started.issueToken());
  });
  afterAll(() => started?.close());
  const current = (): TestApp => {
    if (started === undefined)
      throw new Error('the test app is used outside the tests of the describe block that started it');
    return started;
  };
  return new Proxy({} as SuiteApp, { get: (_target, key) => (key === 'token' ? token : Reflect.get(current(), key)) });
}

/**
 * The same, on a database the caller made and removes. `env.DATABASE_URL` may reach it
 * another way (through a proxy, say), but must still name that database.
 */
export function startTestAppOn(database: TestDatabase, env: Record<string, string> = {}): Promise<TestApp> {
  return launch(database, env, async () => undefined);
}

async function launch(
  database: TestDatabase,
  env: Record<string, string>,
  afterClose: () => Promise<void>,
): Promise<TestApp> {
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'trace', ...env });
  refuseNonTestDatabase(config);
  const logs = new LogCapture();
  const app = await createApp(config, { logDestination: logs.destination });
  const contract = recordResponses(app);
  await app.listen(0, '127.0.0.1');
  const issuedTokens: string[] = [];
  const store = app.get(SqlStore);
  const { dataSource, tokens, tokenSecrets } = store;
  return {
    url: (await app.getUrl()).replace('[::1]', '127.0.0.1'),
    app,
    dataSource,
    engine: database.engine,
    database,
    get databasePath(): string {
      if (database.engine !== 'sqlite') throw new Error('databasePath is SQLite-only; this app runs on PostgreSQL');
      return database.name;
    },
    config,
    logs,
    async issueToken(options = {}) {
      const issued = await new IssueToken(tokens, tokenSecrets, systemClock).execute({
        name: 'e2e',
        scopes: options.scopes,
      });
      issuedTokens.push(issued.plaintext);
      return { id: issued.token.id, token: issued.plaintext };
    },
    async revokeToken(id) {
      const { outcome } = await new RevokeToken(tokens, systemClock).execute(id);
      if (outcome !== 'revoked') throw new Error(`no token ${id} to revoke`);
    },
    plants: () => dataSource.query('SELECT CAST(id AS TEXT) AS id, name, tag FROM plant ORDER BY id'),
    async close() {
      try {
        // The document is built from the app's routes on its first request: read it while the app runs.
        await contract.readDocument();
      } finally {
        try {
          await app.close();
        } finally {
          await afterClose();
        }
      }
      // After the suite: every response it received matched the OpenAPI document, and no
      // log line of the whole run carried a token, a token hash or an Authorization value.
      contract.check();
      logs.assertNoSecrets(issuedTokens);
    },
  };
}

/** Never run the destructive suites against a database someone might care about. */
function refuseNonTestDatabase(config: AppConfig): void {
  const { database } = config;
  if (database.engine === 'sqlite' && database.path.startsWith(tmpdir())) return;
  if (database.engine === 'postgres' && new URL(database.url).pathname.slice(1).startsWith(E2E_DATABASE_PREFIX)) return;
  const where =
    database.engine === 'sqlite' ? database.path : `PostgreSQL database ${new URL(database.url).pathname.slice(1)}`;
  throw new Error(`refusing to run e2e tests against ${where}`);
}
