import type { FieldViolation } from '../common/field-violation.js';
import type { UncheckedNewPlant } from './new-plant-shape.js';
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
  readonly id?: string | bigint | FieldViolation | undefined;
  readonly name: string | FieldViolation;
  readonly tag?: string | FieldViolation | undefined;
}

export type PlantParseResult =
  { readonly ok: true; readonly plant: Plant } | { readonly ok: false; readonly violations: readonly FieldViolation[] };

/** A plant that passed every rule. The only way to get one is `Plant.parse` (or `fromStored`). */
export class Plant {
  private constructor(
    readonly id: PlantId,
    readonly name: PlantName,
    readonly tag: PlantTag | undefined,
  ) {}

  /**
   * Applies every field rule and reports all violations at once, in field order. A field an
   * adapter already found of the wrong type (UncheckedNewPlant) is reported as it came.
   */
  static parse(input: NewPlantInput | UncheckedNewPlant): PlantParseResult {
    const id =
      typeof input.id === 'object'
        ? input.id
        : typeof input.id === 'bigint'
          ? PlantId.fromBigInt(input.id)
          : PlantId.fromLiteral(input.id);
    const name = typeof input.name === 'object' ? [input.name] : PlantName.create(input.name);
    const tag =
      input.tag === undefined ? undefined : typeof input.tag === 'object' ? [input.tag] : PlantTag.create(input.tag);
    if (id instanceof PlantId && name instanceof PlantName && !Array.isArray(tag)) {
      return { ok: true, plant: new Plant(id, name, tag) };
    }
    const violations = [
      ...(id instanceof PlantId ? [] : [id]),
      ...(Array.isArray(name) ? name : []),
      ...(Array.isArray(tag) ? tag : []),
    ];
    return { ok: false, violations };
  }

  /**
   * The plant `id` with a new name and tag, under the same rules as `parse`. An `id` in the
   * input is allowed only when it denotes `id` (a body cannot move a plant to another id); all
   * violations are reported at once, in field order.
   */
  static parseReplacement(id: PlantId, input: PlantReplacementInput): PlantParseResult {
    const parsed = Plant.parse({ id: id.value, name: input.name, tag: input.tag });
    const idViolation = replacementIdViolation(id, input.id);
    if (idViolation === undefined) return parsed;
    return { ok: false, violations: [idViolation, ...(parsed.ok ? [] : parsed.violations)] };
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

function replacementIdViolation(id: PlantId, given: PlantReplacementInput['id']): FieldViolation | undefined {
  if (given === undefined) return undefined;
  const parsed =
    typeof given === 'object'
      ? given
      : typeof given === 'bigint'
        ? PlantId.fromBigInt(given)
        : PlantId.fromLiteral(given);
  if (!(parsed instanceof PlantId)) return parsed;
  return parsed.equals(id)
    ? undefined
    : { field: 'id', message: `id must be ${id.toString()}, the id in the path, or be left out` };
}
