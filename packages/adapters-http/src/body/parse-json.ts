import { isLosslessNumber, parse, type LosslessNumber } from 'lossless-json';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-codes.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export type JsonObject = { readonly [key: string]: unknown };

/**
 * Decodes strict UTF-8 and parses losslessly: numbers stay as their literal text
 * (LosslessNumber), so an int64 id is never rounded through a double.
 * Keys like `__proto__` stay ordinary own properties.
 */
export function parseJsonObject(body: Buffer): JsonObject {
  if (body.length === 0) throw new ApiError(ErrorCode.InvalidJson, 'The request body is empty; send a JSON object.');
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new ApiError(ErrorCode.InvalidJson, 'The request body is not valid UTF-8.');
  }
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    const detail = error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message;
    throw new ApiError(ErrorCode.InvalidJson, `The request body is not valid JSON: ${detail}.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || isLosslessNumber(value)) {
    throw new ApiError(ErrorCode.NotAnObject, `The request body must be a JSON object, not ${describe(value)}.`);
  }
  return value as JsonObject;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (isLosslessNumber(value)) return 'a number';
  return `a ${typeof value}`;
}

export type { LosslessNumber };
export { isLosslessNumber };
