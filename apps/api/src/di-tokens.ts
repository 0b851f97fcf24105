/** DI tokens of the ports and infrastructure bound in PlantStoreModule. */
export const DATA_SOURCE = Symbol('DataSource');
export const PLANT_REPOSITORY = Symbol('PlantRepository');
export const TOKEN_REPOSITORY = Symbol('TokenRepository');
export const CLOCK = Symbol('Clock');
export const REDIS = Symbol('Redis');
export const OUTBOX_RELAY = Symbol('OutboxRelay');
