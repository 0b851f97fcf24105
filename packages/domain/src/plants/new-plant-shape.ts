import type { FieldViolation } from '../common/field-violation.js';
import { PlantId } from './plant-id.js';
import { PlantName } from './plant-name.js';
import { PlantTag } from './plant-tag.js';

/**
 * The JSON-type rules of a NewPlant (docs/http-api.md#newplant-rules): which fields must be
 * present and of which type, in these words. Every adapter that reads a NewPlant from an
 * untyped source hands it over as a NewPlantRecord, so the HTTP API and the CLI import say the
 * same thing about the same input.
 */
export const NewPlantShape = {
  idRequired: { field: 'id', message: 'id is required' },
  idNotNumber: { field: 'id', message: 'id must be a JSON number' },
  nameRequired: { field: 'name', message: 'name is required' },
  nameNotString: { field: 'name', message: 'name must be a string' },
  tagNotString: { field: 'tag', message: 'tag must be a string if present; omit it for no tag' },
} as const satisfies Record<string, FieldViolation>;

/**
 * A NewPlant as an untyped source holds it, not yet checked: a parsed JSON object, a CSV
 * row's cells. `Plant.parseRecord` applies the shape rules and the content rules to it in one
 * pass. Only own properties of `fields` count: `{"__proto__": …}` or an inherited `name` is
 * not a field.
 */
export interface NewPlantRecord {
  readonly fields: { readonly [key: string]: unknown };
  /** Which values the source holds as numbers, with their exact text (undefined: not a number). */
  readonly numberLiteral: (value: unknown) => string | undefined;
}

/** A field as read: the value the rules made of it, or what is wrong with it. */
export type ReadField<T> = T | readonly FieldViolation[];

/** The record's id: required, a number, an int64. Null counts as missing for the required fields. */
export function idOf(record: NewPlantRecord): ReadField<PlantId> {
  const id = own(record, 'id');
  if (id === undefined || id === null) return [NewPlantShape.idRequired];
  return idFromNumber(record, id);
}

/** The id a replacement's record gives, if any: absent is none, anything else as a NewPlant's id. */
export function givenIdOf(record: NewPlantRecord): ReadField<PlantId> | undefined {
  const id = own(record, 'id');
  return id === undefined ? undefined : idFromNumber(record, id);
}

export function nameOf(record: NewPlantRecord): ReadField<PlantName> {
  const name = own(record, 'name');
  if (name === undefined || name === null) return [NewPlantShape.nameRequired];
  if (typeof name !== 'string') return [NewPlantShape.nameNotString];
  return PlantName.create(name);
}

/** Absent is no tag; present (null included) it must be a string. */
export function tagOf(record: NewPlantRecord): ReadField<PlantTag> | undefined {
  const tag = own(record, 'tag');
  if (tag === undefined) return undefined;
  if (typeof tag !== 'string') return [NewPlantShape.tagNotString];
  return PlantTag.create(tag);
}

function idFromNumber(record: NewPlantRecord, id: unknown): ReadField<PlantId> {
  const literal = record.numberLiteral(id);
  if (literal === undefined) return [NewPlantShape.idNotNumber];
  const parsed = PlantId.fromLiteral(literal);
  return parsed instanceof PlantId ? parsed : [parsed];
}

function own({ fields }: NewPlantRecord, key: string): unknown {
  return Object.hasOwn(fields, key) ? fields[key] : undefined;
}
