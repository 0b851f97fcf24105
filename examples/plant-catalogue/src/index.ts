export * from './catalogue.js';
export * from './plant-events.js';
