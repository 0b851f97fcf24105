import { describe } from './describe.js';
import { PlantStoreInputError } from './errors.js';
import type { components } from './generated/openapi.js';

/** An int64 plant id: a bigint or a decimal string, never a JS number (exact only up to 2^53). */
export type PlantId = components['schemas']['NewPlant']['id'];

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const DECIMAL_INTEGER = /^-?(0|[1-9][0-9]*)$/;

/**
 * The id as the JSON number literal (and path segment) to send. The server parses it exactly,
 * so every digit reaches the store; a value that could not be stored is refused here, before
 * any request.
 */
export function idLiteral(id: PlantId): string {
  if (typeof id !== 'bigint' && typeof id !== 'string')
    throw new PlantStoreInputError(
      `a plant id is a bigint or a decimal string such as "9007199254740993" (got ${describe(id)})`,
    );
  const value = parseInt64(id);
  if (value === undefined) {
    throw new PlantStoreInputError(
      typeof id === 'string' && !DECIMAL_INTEGER.test(id)
        ? `a plant id string is a decimal integer without leading zeros, such as "9007199254740993" (got "${id}")`
        : `a plant id must be an int64, from ${INT64_MIN} to ${INT64_MAX} (got ${id})`,
    );
  }
  return value.toString();
}

/**
 * An id as the server wrote it (the digits of a JSON number), under the rule the client applies
 * to ids it sends: a decimal integer in the int64 range. Undefined when it is not one.
 */
export function parseInt64(digits: bigint | string): bigint | undefined {
  if (typeof digits === 'string' && !DECIMAL_INTEGER.test(digits)) return undefined;
  const value = BigInt(digits);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}
