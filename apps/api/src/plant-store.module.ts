import {
  Inject,
  Logger,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  AUTHENTICATE_TOKEN,
  CREATE_PLANT,
  GET_PLANT,
  HTTP_OPTIONS,
  LIST_PLANTS,
  READINESS_PROBE,
  RedisLimiterStorage,
  type HttpOptions,
  type OutboxStatus,
  type ReadinessProbe,
} from '@plantstore/adapters-http';
import { JetStreamPlantCreatedPublisher, OutboxRelay } from '@plantstore/adapters-messaging';
import {
  CachingTokenRepository,
  nodeTokenSecrets,
  openDataSource,
  TypeOrmPlantCreatedOutbox,
  TypeOrmPlantRepository,
  TypeOrmTokenRepository,
  type DataSource,
} from '@plantstore/adapters-persistence';
import {
  AuthenticateToken,
  CreatePlant,
  GetPlant,
  ListPlants,
  systemClock,
  type Clock,
  type PlantRepository,
  type TokenRepository,
} from '@plantstore/domain';
import type { Redis } from 'ioredis';
import type { AppConfig } from './config.js';
import { CLOCK, DATA_SOURCE, OUTBOX_RELAY, PLANT_REPOSITORY, REDIS, TOKEN_REPOSITORY } from './di-tokens.js';

/** While Redis fails, one request per second tries it again; the others skip it. */
const REDIS_RETRY_INTERVAL_MS = 1_000;

/** Closes the database (and Redis) after the HTTP server has stopped and in-flight requests finished. */
class ConnectionCloser implements OnApplicationShutdown {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis | undefined,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    this.redis?.disconnect();
  }
}

interface PlantEventRelay {
  readonly relay: OutboxRelay;
  readonly status: OutboxStatus;
  /** Turns the store's events on (a new store has them off), saying so when it changed anything. */
  readonly enableEvents: () => Promise<void>;
}

/**
 * Runs the PlantCreated relay while the app runs (docs/operations.md#plant-events): started
 * once the app is up, stopped before the database closes. Not part of readiness: a NATS
 * outage delays events, never creates.
 */
class PlantEventRelayLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@Inject(OUTBOX_RELAY) private readonly events: PlantEventRelay | undefined) {}

  async onApplicationBootstrap(): Promise<void> {
    // Before the server listens: no plant is created between the switch and the relay.
    await this.events?.enableEvents();
    this.events?.relay.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.events?.relay.stop();
  }
}

/** Every port bound to its adapter, in one visible place. */
@Module({})
export class PlantStoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: PlantStoreModule,
      providers: [
        { provide: DATA_SOURCE, useFactory: () => openDataSource(config.database) },
        { provide: CLOCK, useValue: systemClock },
        {
          provide: REDIS,
          // Shared rate-limit counters. Every call has a deadline (commandTimeout): a Redis that
          // accepts connections but never answers must not hold requests; the limiter fails open.
          // Commands fail at once while the connection is down (no offline queue).
          // ioredis is loaded only when configured: ~1 MB of heap the default set-up never uses.
          useFactory: async () => {
            if (config.redisUrl === undefined) return undefined;
            const { Redis } = await import('ioredis');
            const redis = new Redis(config.redisUrl, {
              commandTimeout: config.redisTimeoutMs,
              connectTimeout: Math.max(1_000, config.redisTimeoutMs),
              maxRetriesPerRequest: 0,
              enableOfflineQueue: false,
              lazyConnect: false,
            });
            // Until the limiter storage listens (it warns once per outage), a failed connect is
            // not printed by ioredis as an unhandled error with its stack; it retries on its own.
            redis.on('error', () => undefined);
            return redis;
          },
        },
        {
          provide: PLANT_REPOSITORY,
          useFactory: (dataSource: DataSource) => new TypeOrmPlantRepository(dataSource),
          inject: [DATA_SOURCE],
        },
        // One TypeOrmPlantRepository serves both the create port and the read port.
        {
          provide: GET_PLANT,
          useFactory: (plants: TypeOrmPlantRepository) => new GetPlant(plants),
          inject: [PLANT_REPOSITORY],
        },
        {
          provide: LIST_PLANTS,
          useFactory: (plants: TypeOrmPlantRepository) => new ListPlants(plants),
          inject: [PLANT_REPOSITORY],
        },
        {
          provide: TOKEN_REPOSITORY,
          useFactory: (dataSource: DataSource) => new TypeOrmTokenRepository(dataSource),
          inject: [DATA_SOURCE],
        },
        {
          provide: CREATE_PLANT,
          useFactory: (plants: PlantRepository, clock: Clock) => new CreatePlant(plants, clock),
          inject: [PLANT_REPOSITORY, CLOCK],
        },
        {
          provide: AUTHENTICATE_TOKEN,
          useFactory: (tokens: TokenRepository, clock: Clock) =>
            new AuthenticateToken(
              new CachingTokenRepository(tokens, clock, config.tokenCacheTtlMs),
              nodeTokenSecrets,
              clock,
            ),
          inject: [TOKEN_REPOSITORY, CLOCK],
        },
        {
          provide: READINESS_PROBE,
          useFactory: (dataSource: DataSource): ReadinessProbe => ({
            ping: async () => void (await dataSource.query('SELECT 1')),
          }),
          inject: [DATA_SOURCE],
        },
        {
          provide: OUTBOX_RELAY,
          useFactory: (dataSource: DataSource): PlantEventRelay | undefined => {
            const natsUrl = config.natsUrl;
            if (natsUrl === undefined) return undefined;
            const outbox = new TypeOrmPlantCreatedOutbox(dataSource);
            const logger = new Logger('PlantEventRelay');
            const relay = new OutboxRelay(outbox, () => JetStreamPlantCreatedPublisher.connect(natsUrl), {
              warn: (message) => logger.warn(message),
              info: (message) => logger.log(message),
            });
            const enableEvents = async () => {
              const { changed, plants } = await outbox.enableEvents();
              if (changed)
                logger.log(`PlantCreated events switched on; the ${plants} plant(s) stored before get no event`);
            };
            return { relay, enableEvents, status: { backlog: () => outbox.backlog(), counts: () => relay.status } };
          },
          inject: [DATA_SOURCE],
        },
        PlantEventRelayLifecycle,
        {
          provide: HTTP_OPTIONS,
          useFactory: (redis: Redis | undefined, events: PlantEventRelay | undefined): HttpOptions => ({
            bodyLimitBytes: config.bodyLimitBytes,
            maxRequestsInFlight: config.maxRequestsInFlight,
            maxRequestsInFlightPerClient: config.maxRequestsInFlightPerClient,
            rateLimitPerMinute: config.rateLimitPerMinute,
            authFailuresPerMinute: config.authFailuresPerMinute,
            limiterStorage:
              redis === undefined
                ? undefined
                : new RedisLimiterStorage(redis, { retryIntervalMs: REDIS_RETRY_INTERVAL_MS }),
            outbox: events?.status,
          }),
          inject: [REDIS, OUTBOX_RELAY],
        },
        ConnectionCloser,
      ],
      exports: [DATA_SOURCE, CREATE_PLANT, GET_PLANT, LIST_PLANTS, AUTHENTICATE_TOKEN, READINESS_PROBE, HTTP_OPTIONS],
    };
  }
}
