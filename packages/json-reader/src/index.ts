export * from './number-literal.js';
export * from './read-json-object.js';
