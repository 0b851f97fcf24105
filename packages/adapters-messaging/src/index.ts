export * from './plant-events-stream.js';
export * from './jetstream-publisher.js';
export * from './outbox-relay.js';
export * from './plant-event-relay.js';
