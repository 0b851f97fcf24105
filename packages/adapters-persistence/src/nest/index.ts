export * from './sql-store.module.js';
