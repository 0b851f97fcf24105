export * from './tokens/caching-token-repository.js';
export * from './connection/create-data-source.js';
export * from './config/database-config.js';
export * from './tokens/node-token-secrets.js';
export * from './connection/storage-errors.js';
export { SqlPlantRepository, type SqlPlantRepositoryOptions } from './plants/sql-plant-repository.js';
export { DEFAULT_MAX_BATCH, MAX_ROWS_PER_STATEMENT } from './config/write-path-tuning.js';
export { lockWaitOf } from './connection/lock-wait.js';
export type { SqlRunnerOptions } from './connection/sql-runner.js';
export {
  SqlPlantEventOutbox,
  type EventsSwitchOutcome,
  type OutboxBacklog,
  type PublishEvents,
} from './events/sql-plant-event-outbox.js';
export { SqlStore, type SqlStoreOptions } from './store/sql-store.js';
export { SqlPlantFeed, MAX_LAG_COUNTED, type FeedLag } from './plants/sql-plant-feed.js';
export * from './tokens/typeorm-token-repository.js';
export { migrations } from './migrations/index.js';
export type { DataSource } from 'typeorm';
