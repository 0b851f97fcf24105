export * from './redis-limiter.module.js';
