import type { FieldViolation } from '../common/field-violation.js';

/**
 * The JSON-type rules of a NewPlant (docs/http-api.md#newplant-rules): which fields must be present and of which
 * type. Every adapter that reads a NewPlant reports them with these exact messages, so the
 * HTTP API and the CLI import say the same thing about the same input.
 */
export const NewPlantShape = {
  idRequired: { field: 'id', message: 'id is required' },
  idNotNumber: { field: 'id', message: 'id must be a JSON number' },
  nameRequired: { field: 'name', message: 'name is required' },
  nameNotString: { field: 'name', message: 'name must be a string' },
  tagNotString: { field: 'tag', message: 'tag must be a string if present; omit it for no tag' },
} as const satisfies Record<string, FieldViolation>;

/**
 * A NewPlant whose fields were read from an untyped source. A field of the wrong type arrives
 * as its violation, so Plant.parse can report it in field order beside the content rules of
 * the other fields.
 */
export interface UncheckedNewPlant {
  readonly id: string | bigint | FieldViolation;
  readonly name: string | FieldViolation;
  readonly tag?: string | FieldViolation | undefined;
}

/**
 * Applies the shape rules to a plain record (a parsed JSON object, a CSV row). `numberLiteral`
 * says which values the source holds as numbers, and gives their exact text. Only own
 * properties count: `{"__proto__": …}` or an inherited `name` is not a field.
 */
export function checkNewPlantShape(
  record: { readonly [key: string]: unknown },
  numberLiteral: (value: unknown) => string | undefined,
): UncheckedNewPlant {
  const id = own(record, 'id');
  const name = own(record, 'name');
  const tag = own(record, 'tag');
  return {
    // null counts as missing for the required fields, as class-validator's IsDefined has it.
    id: id === undefined || id === null ? NewPlantShape.idRequired : (numberLiteral(id) ?? NewPlantShape.idNotNumber),
    name:
      name === undefined || name === null
        ? NewPlantShape.nameRequired
        : typeof name === 'string'
          ? name
          : NewPlantShape.nameNotString,
    tag: tag === undefined ? undefined : typeof tag === 'string' ? tag : NewPlantShape.tagNotString,
  };
}

function own(record: { readonly [key: string]: unknown }, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
