export * from './caching-token-repository.js';
export * from './create-data-source.js';
export * from './database-config.js';
export * from './node-token-secrets.js';
export * from './storage-errors.js';
export { SqlPlantRepository, DEFAULT_MAX_BATCH, MAX_ROWS_PER_STATEMENT } from './plants/sql-plant-repository.js';
export {
  SqlPlantEventOutbox,
  type EventsSwitchOutcome,
  type OutboxBacklog,
  type PublishEvents,
} from './sql-plant-event-outbox.js';
export { SqlStore, type SqlStoreOptions } from './sql-store.js';
export * from './typeorm-token-repository.js';
export { migrations } from './migrations/index.js';
export type { DataSource } from 'typeorm';
