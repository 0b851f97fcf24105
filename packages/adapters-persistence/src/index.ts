export * from './caching-token-repository.js';
export * from './create-data-source.js';
export * from './database-config.js';
export * from './node-token-secrets.js';
export * from './storage-errors.js';
export { TypeOrmPlantRepository, DEFAULT_MAX_BATCH, MAX_ROWS_PER_STATEMENT } from './typeorm-plant-repository.js';
export * from './typeorm-token-repository.js';
export {
  TypeOrmPlantCreatedOutbox,
  type EventsSwitchOutcome,
  type OutboxBacklog,
  type PublishEvents,
} from './typeorm-plant-created-outbox.js';
export { migrations } from './migrations/index.js';
export type { DataSource } from 'typeorm';
