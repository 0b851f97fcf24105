import { Module, type DynamicModule } from '@nestjs/common';
import { PlantStoreHttpModule, WebPageModule } from '@plantstore/adapters-http';
import { PlantEventRelay } from '@plantstore/adapters-messaging';
import { PlantEventRelayModule } from '@plantstore/adapters-messaging/nest';
import { SqlStore } from '@plantstore/adapters-persistence';
import { SqlStoreModule } from '@plantstore/adapters-persistence/nest';
import { RedisLimiterStorage } from '@plantstore/adapters-redis';
import { RedisLimiterModule } from '@plantstore/adapters-redis/nest';
import type { AppConfig } from './config.js';
import { webPageDirectory } from './web-page-directory.js';

/** The server: each adapter wired by its own module, from the configuration. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    const store = SqlStoreModule.forRoot(config.database, { tokenCacheTtlMs: config.tokenCacheTtlMs });
    const events = PlantEventRelayModule.forRootAsync({
      imports: [store],
      inject: [SqlStore],
      useFactory: (sql: SqlStore) =>
        config.natsUrl === undefined ? undefined : { natsUrl: config.natsUrl, outbox: sql.events },
    });
    const limiter = RedisLimiterModule.forRoot(
      config.redisUrl === undefined ? undefined : { url: config.redisUrl, timeoutMs: config.redisTimeoutMs },
    );
    const http = PlantStoreHttpModule.forRootAsync({
      imports: [store, events, limiter],
      inject: [SqlStore, PlantEventRelay, RedisLimiterStorage],
      useFactory: (sql: SqlStore, relay: PlantEventRelay | undefined, redis: RedisLimiterStorage | undefined) => ({
        ...config.limits,
        plants: sql.plants,
        changes: sql.feed,
        feedLag: () => sql.feedLag(),
        tokens: sql.tokens,
        tokenSecrets: sql.tokenSecrets,
        readiness: sql,
        limiterStorage: redis,
        outbox: relay?.status,
      }),
    });
    const page = config.webPage ? [WebPageModule.serve(webPageDirectory)] : [];
    return { module: AppModule, imports: [store, events, limiter, http, ...page] };
  }
}
