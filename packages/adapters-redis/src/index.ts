export type * from './limiter-records.js';
export * from './open-redis.js';
export { RedisLimiterStorage, type RedisLimiterOptions } from './redis-limiter-storage.js';
