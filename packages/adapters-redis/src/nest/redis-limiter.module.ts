import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { openRedisLimiter, type OpenRedisLimiter, type RedisLimiterConfig } from '../open-redis.js';
import { RedisLimiterStorage } from '../redis-limiter-storage.js';

const OPEN_LIMITER = Symbol('OpenRedisLimiter');

/** Closes the Redis connection once the app has stopped serving. */
@Injectable()
class RedisLimiterCloser implements OnApplicationShutdown {
  constructor(@Inject(OPEN_LIMITER) private readonly limiter: OpenRedisLimiter | undefined) {}

  onApplicationShutdown(): void {
    this.limiter?.close();
  }
}

/**
 * Provides `RedisLimiterStorage` on a connection this module opens and closes; with no
 * configuration it provides `undefined` and opens nothing (the limits then count in memory).
 */
@Module({})
export class RedisLimiterModule {
  static forRoot(config: RedisLimiterConfig | undefined): DynamicModule {
    return {
      module: RedisLimiterModule,
      providers: [
        { provide: OPEN_LIMITER, useFactory: () => (config === undefined ? undefined : openRedisLimiter(config)) },
        {
          provide: RedisLimiterStorage,
          useFactory: (limiter: OpenRedisLimiter | undefined) => limiter?.storage,
          inject: [OPEN_LIMITER],
        },
        RedisLimiterCloser,
      ],
      exports: [RedisLimiterStorage],
    };
  }
}
