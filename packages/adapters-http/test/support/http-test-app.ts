import 'reflect-metadata';
import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import {
  IssueToken,
  type PlantChangeFeed,
  type PlantChangeRepository,
  type PlantReader,
  type PlantRepository,
  type Scope,
} from '@plantstore/domain';
import {
  DeterministicTokenSecrets,
  FixedClock,
  InMemoryPlantRepository,
  InMemoryTokenRepository,
} from '@plantstore/domain/testing';
import { createPinoLogger } from '../../src/logging/pino-logger.js';
import { PlantStoreHttpModule } from '../../src/plant-store-http.module.js';
import { createFastifyAdapter } from '../../src/pipeline/create-fastify-adapter.js';
import type { HttpOptions } from '../../src/ports/di-tokens.js';

type HttpLimits = Pick<
  HttpOptions,
  | 'bodyLimitBytes'
  | 'rateLimitPerMinute'
  | 'maxRequestsInFlight'
  | 'maxRequestsInFlightPerClient'
  | 'authFailuresPerMinute'
  | 'maxChangeStreams'
  | 'changeStreamTickMs'
>;

export const TEST_HTTP_LIMITS: HttpLimits = {
  bodyLimitBytes: 64 * 1024,
  rateLimitPerMinute: 0,
  maxRequestsInFlight: 1_000,
  maxRequestsInFlightPerClient: 1_000,
  authFailuresPerMinute: 0,
  maxChangeStreams: 1_000,
  changeStreamTickMs: 20,
};

export interface HttpTestApp {
  readonly app: NestFastifyApplication;
  readonly plants: PlantRepository & PlantReader & PlantChangeRepository;
  /** Issues a token with these scopes and returns its plaintext, for the Authorization header. */
  token(scopes: readonly Scope[]): Promise<string>;
}

export interface HttpTestAppOptions {
  readonly http?: Partial<HttpLimits>;
  /** The store behind the use cases; the domain's in-memory repository by default. */
  readonly plants?: PlantRepository & PlantReader & PlantChangeRepository & PlantChangeFeed;
  /** The change feed; the store's own (`plants`) by default. */
  readonly changes?: PlantChangeFeed;
  /** How far the feed lags, for the metrics. */
  readonly feedLag?: HttpOptions['feedLag'];
  /** Modules the composition root adds beside the adapter's own (the web page). */
  readonly modules?: readonly DynamicModule[];
}

/**
 * The HTTP adapter alone, on the domain's testing fakes, answering through Fastify's inject
 * (no socket): the adapter's own behaviour in milliseconds. A plain Nest app that imports the
 * module and nothing else, as another app would. The whole process, its sockets, its database
 * and its crashes are the apps/api suites' business.
 */
export async function startHttpTestApp(options: HttpTestAppOptions = {}): Promise<HttpTestApp> {
  const clock = new FixedClock(new Date('2026-01-01T00:00:00Z'));
  const plants = options.plants ?? new InMemoryPlantRepository();
  const tokens = new InMemoryTokenRepository();
  const tokenSecrets = new DeterministicTokenSecrets();
  const moduleRef = await Test.createTestingModule({
    imports: [
      PlantStoreHttpModule.forRootAsync({
        useFactory: () => ({
          ...TEST_HTTP_LIMITS,
          ...options.http,
          plants,
          changes: options.changes ?? plants,
          feedLag: options.feedLag,
          tokens,
          tokenSecrets,
          clock,
          readiness: { ping: async () => undefined },
        }),
      }),
      ...(options.modules ?? []),
    ],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(
    createFastifyAdapter(createPinoLogger('silent')),
    { bodyParser: false, logger: false },
  );
  try {
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  } catch (error) {
    await app.close();
    throw error;
  }
  const issue = new IssueToken(tokens, tokenSecrets, clock);
  return {
    app,
    plants,
    token: async (scopes) => (await issue.execute({ name: 'test', scopes: [...scopes] })).plaintext,
  };
}
