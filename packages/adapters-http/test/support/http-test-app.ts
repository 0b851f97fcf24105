import 'reflect-metadata';
import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import {
  AuthenticateToken,
  CreatePlant,
  GetPlant,
  IssueToken,
  ListPlants,
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
import { configureHttp } from '../../src/configure-http.js';
import { createPinoLogger } from '../../src/logging/pino-logger.js';
import { PlantStoreHttpModule } from '../../src/plant-store-http.module.js';
import { createFastifyAdapter } from '../../src/pipeline/create-fastify-adapter.js';
import {
  AUTHENTICATE_TOKEN,
  CREATE_PLANT,
  GET_PLANT,
  HTTP_OPTIONS,
  LIST_PLANTS,
  READINESS_PROBE,
  type HttpOptions,
} from '../../src/ports/di-tokens.js';

export const TEST_HTTP_OPTIONS: HttpOptions = {
  bodyLimitBytes: 64 * 1024,
  rateLimitPerMinute: 0,
  maxRequestsInFlight: 1_000,
  maxRequestsInFlightPerClient: 1_000,
  authFailuresPerMinute: 0,
};

export interface HttpTestApp {
  readonly app: NestFastifyApplication;
  readonly plants: PlantRepository & PlantReader;
  /** Issues a token with these scopes and returns its plaintext, for the Authorization header. */
  token(scopes: readonly Scope[]): Promise<string>;
}

export interface HttpTestAppOptions {
  readonly http?: Partial<HttpOptions>;
  /** The store behind the use cases; the domain's in-memory repository by default. */
  readonly plants?: PlantRepository & PlantReader;
  /** Leave out configureHttp, to see that the module refuses to start without its pipeline. */
  readonly withoutPipeline?: boolean;
  /** Modules the composition root adds beside the adapter's own (the web page). */
  readonly modules?: readonly DynamicModule[];
}

/**
 * The HTTP adapter alone, on the domain's testing fakes, answering through Fastify's inject
 * (no socket): the adapter's own behaviour in milliseconds. The whole process, its sockets,
 * its database and its crashes are the apps/api suites' business.
 */
export async function startHttpTestApp(options: HttpTestAppOptions = {}): Promise<HttpTestApp> {
  const clock = new FixedClock(new Date('2026-01-01T00:00:00Z'));
  const plants = options.plants ?? new InMemoryPlantRepository();
  const tokens = new InMemoryTokenRepository();
  const secrets = new DeterministicTokenSecrets();
  const ports: DynamicModule = {
    module: class DomainFakes {},
    providers: [
      { provide: CREATE_PLANT, useValue: new CreatePlant(plants, clock) },
      { provide: GET_PLANT, useValue: new GetPlant(plants) },
      { provide: LIST_PLANTS, useValue: new ListPlants(plants) },
      { provide: AUTHENTICATE_TOKEN, useValue: new AuthenticateToken(tokens, secrets, clock) },
      { provide: READINESS_PROBE, useValue: { ping: async () => undefined } },
      { provide: HTTP_OPTIONS, useValue: { ...TEST_HTTP_OPTIONS, ...options.http } },
    ],
    exports: [CREATE_PLANT, GET_PLANT, LIST_PLANTS, AUTHENTICATE_TOKEN, READINESS_PROBE, HTTP_OPTIONS],
  };
  const moduleRef = await Test.createTestingModule({
    imports: [PlantStoreHttpModule.register({ imports: [ports] }), ...(options.modules ?? [])],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(
    createFastifyAdapter(createPinoLogger('silent')),
    { bodyParser: false, logger: false },
  );
  if (options.withoutPipeline !== true) configureHttp(app);
  try {
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  } catch (error) {
    await app.close();
    throw error;
  }
  const issue = new IssueToken(tokens, secrets, clock);
  return {
    app,
    plants,
    token: async (scopes) => (await issue.execute({ name: 'test', scopes: [...scopes] })).plaintext,
  };
}
