export * from './plant-event-relay.module.js';
