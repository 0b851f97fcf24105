/**
 * A JSON number as it was written. The reader keeps every number this way, so an int64 id is
 * never rounded through a double: its digits are the source text itself.
 */
export class JsonNumber {
  constructor(readonly literal: string) {}
}

/**
 * The exact text of a JSON number read by this package, or undefined for any other value:
 * the accessor a NewPlantRecord carries (`Plant.parseRecord`).
 */
export function numberLiteral(value: unknown): string | undefined {
  return value instanceof JsonNumber ? value.literal : undefined;
}
