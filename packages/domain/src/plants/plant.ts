import type { FieldViolation } from '../common/field-violation.js';
import { givenIdOf, idOf, nameOf, tagOf, type NewPlantRecord, type ReadField } from './new-plant-shape.js';
import { PlantId } from './plant-id.js';
import { PlantName } from './plant-name.js';
import { PlantTag } from './plant-tag.js';

/**
 * A plant as a client submits it, fields already of the right JSON type: `id` is the exact
 * text of a JSON number (or a bigint), `tag` is absent or a string.
 */
export interface NewPlantInput {
  readonly id: string | bigint;
  readonly name: string;
  readonly tag?: string | undefined;
}

/** A plant as plain data, the form `JSON.stringify(plant)` writes: the id as exact decimal text. */
export interface PlantJson {
  readonly id: string;
  readonly name: string;
  /** Absent when the plant has no tag. */
  readonly tag?: string;
}

/**
 * A plant's new content, as a client sends it to replace the stored one: `id` is optional,
 * and must denote the plant's own id when given.
 */
export interface PlantReplacementInput {
  readonly id?: string | bigint | undefined;
  readonly name: string;
  readonly tag?: string | undefined;
}

export type PlantParseResult =
  { readonly ok: true; readonly plant: Plant } | { readonly ok: false; readonly violations: readonly FieldViolation[] };

/** A plant that passed every rule. The only ways to get one are the `parse` functions (or `fromStored`). */
export class Plant {
  private constructor(
    readonly id: PlantId,
    readonly name: PlantName,
    readonly tag: PlantTag | undefined,
  ) {}

  /** Applies every field rule to typed fields and reports all violations at once, in field order. */
  static parse(input: NewPlantInput): PlantParseResult {
    return Plant.assemble(
      idFromValue(input.id),
      PlantName.create(input.name),
      input.tag === undefined ? undefined : PlantTag.create(input.tag),
    );
  }

  /**
   * Reads a plant from an untyped source (a parsed JSON body or file line, a CSV row): each
   * field's shape (NewPlantShape: present, of its JSON type), then its content, every
   * violation of every field reported at once, in field order.
   */
  static parseRecord(record: NewPlantRecord): PlantParseResult {
    return Plant.assemble(idOf(record), nameOf(record), tagOf(record));
  }

  /**
   * The plant `id` with a new name and tag, under the same rules as `parse`. An `id` in the
   * input is allowed only when it denotes `id` (a body cannot move a plant to another id); all
   * violations are reported at once, in field order.
   */
  static parseReplacement(id: PlantId, input: PlantReplacementInput): PlantParseResult {
    return Plant.assembleReplacement(
      id,
      input.id === undefined ? undefined : idFromValue(input.id),
      PlantName.create(input.name),
      input.tag === undefined ? undefined : PlantTag.create(input.tag),
    );
  }

  /** `parseReplacement` of an untyped source's record, under the shape rules of `parseRecord`. */
  static parseReplacementRecord(id: PlantId, record: NewPlantRecord): PlantParseResult {
    return Plant.assembleReplacement(id, givenIdOf(record), nameOf(record), tagOf(record));
  }

  private static assemble(
    id: ReadField<PlantId>,
    name: ReadField<PlantName>,
    tag: ReadField<PlantTag> | undefined,
  ): PlantParseResult {
    if (id instanceof PlantId && name instanceof PlantName && !isViolated(tag))
      return { ok: true, plant: new Plant(id, name, tag) };
    return { ok: false, violations: [...violationsOf(id), ...violationsOf(name), ...violationsOf(tag)] };
  }

  private static assembleReplacement(
    id: PlantId,
    given: ReadField<PlantId> | undefined,
    name: ReadField<PlantName>,
    tag: ReadField<PlantTag> | undefined,
  ): PlantParseResult {
    const parsed = Plant.assemble(id, name, tag);
    const idViolations = given === undefined ? [] : replacementIdViolations(id, given);
    if (idViolations.length === 0) return parsed;
    return { ok: false, violations: [...idViolations, ...(parsed.ok ? [] : parsed.violations)] };
  }

  /** Rebuilds a plant read from storage, where the rules were applied on the way in. */
  static fromStored(id: PlantId, name: string, tag: string | null | undefined): Plant {
    const parsed = Plant.parse(
      tag === null || tag === undefined ? { id: id.value, name } : { id: id.value, name, tag },
    );
    if (!parsed.ok) throw new RangeError(`stored plant ${id.toString()} breaks the plant rules`);
    return parsed.plant;
  }

  /** Same name and same tag (absent equals absent): a retried create, not a conflict. */
  hasSameContentAs(other: Plant): boolean {
    return this.id.equals(other.id) && this.name.value === other.name.value && this.tag?.value === other.tag?.value;
  }

  /**
   * The plant as one JSON object, `{"id":…,"name":…,"tag":…}` (no tag when it has none), with
   * the id a JSON number of exact digits: what `JSON.stringify` cannot write (a bigint throws,
   * a Number rounds past 2^53). Read it back with a parser that keeps big integers.
   */
  toJsonText(): string {
    const tag = this.tag === undefined ? '' : `,"tag":${JSON.stringify(this.tag.value)}`;
    return `{"id":${this.id.toString()},"name":${JSON.stringify(this.name.value)}${tag}}`;
  }

  /** The plain form (also what `JSON.stringify` writes); `Plant.parse` reads it back. */
  toJSON(): PlantJson {
    const plain = { id: this.id.toString(), name: this.name.value };
    return this.tag === undefined ? plain : { ...plain, tag: this.tag.value };
  }
}

function idFromValue(id: string | bigint): ReadField<PlantId> {
  const parsed = typeof id === 'bigint' ? PlantId.fromBigInt(id) : PlantId.fromLiteral(id);
  return parsed instanceof PlantId ? parsed : [parsed];
}

function isViolated<T>(field: ReadField<T> | undefined): field is readonly FieldViolation[] {
  return Array.isArray(field);
}

function violationsOf<T>(field: ReadField<T> | undefined): readonly FieldViolation[] {
  return isViolated(field) ? field : [];
}

function replacementIdViolations(id: PlantId, given: ReadField<PlantId>): readonly FieldViolation[] {
  if (isViolated(given)) return given;
  return given.equals(id)
    ? []
    : [{ field: 'id', message: `id must be ${id.toString()}, the id in the path, or be left out` }];
}
