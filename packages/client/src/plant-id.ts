import type { components } from './generated/openapi.js';

/** An int64 plant id: a bigint or a decimal string, never a JS number (exact only up to 2^53). */
export type PlantId = components['schemas']['NewPlant']['id'];

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const DECIMAL_INTEGER = /^-?(0|[1-9][0-9]*)$/;

/**
 * The id as the JSON number literal to send. The server parses it exactly, so every digit
 * reaches the store; a value that could not be stored is refused here, before any request.
 */
export function idLiteral(id: PlantId): string {
  let value: bigint;
  if (typeof id === 'bigint') value = id;
  else if (typeof id === 'string' && DECIMAL_INTEGER.test(id)) value = BigInt(id);
  else
    throw new TypeError(
      `a plant id is a bigint or a decimal string such as "9007199254740993" (got ${typeof id} ${String(id)})`,
    );
  if (value < INT64_MIN || value > INT64_MAX) {
    throw new RangeError(`a plant id must be an int64, from ${INT64_MIN} to ${INT64_MAX} (got ${value})`);
  }
  return value.toString();
}
