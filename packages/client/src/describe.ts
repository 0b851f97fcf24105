/** A value as an error message shows it; never throws (String() of a null-prototype object would). */
export function describe(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
    case 'bigint':
    case 'boolean':
      return `${typeof value} ${String(value)}`;
    case 'undefined':
      return 'undefined';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    default:
      return value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object';
  }
}
