// The JetStream publisher is the subpath `@plantstore/adapters-messaging/jetstream`: importing
// this index does not load the NATS client.
export * from './plant-events-stream.js';
export * from './outbox-relay.js';
export * from './plant-event-relay.js';
