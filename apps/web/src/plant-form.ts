import type { NewPlant, PlantChange } from '@plantstore/client';
import { Plant, PlantValidationError, type FieldViolation, type PlantId } from '@plantstore/domain';

/** The add form's fields as typed: an empty tag means "no tag". */
export interface PlantFormInput {
  readonly id: string;
  readonly name: string;
  readonly tag: string;
}

/** The edit form's fields as typed: an empty tag removes the plant's tag. */
export type PlantChangeInput = Omit<PlantFormInput, 'id'>;

export type PlantField = 'id' | 'name' | 'tag';

/** A form the domain's rules refuse. */
export interface PlantFormRefusal {
  readonly ok: false;
  /** The sentence the server answers for the same plant (its 400 message). */
  readonly sentence: string;
  /** Each field's problems, for the message beside it. */
  readonly problems: ReadonlyMap<PlantField, string>;
}

export type PlantFormCheck = { readonly ok: true; readonly plant: NewPlant } | PlantFormRefusal;

export type PlantChangeCheck = { readonly ok: true; readonly change: PlantChange } | PlantFormRefusal;

/**
 * The form checked by the domain's own rules before anything is sent: the id as the JSON number
 * the person typed, the name and the tag as the server would read them. The page restates none
 * of the rules, so it refuses exactly what the server refuses, in the same words.
 */
export function checkPlantForm(input: PlantFormInput): PlantFormCheck {
  const parsed = Plant.parse(input.tag === '' ? { id: input.id, name: input.name } : input);
  if (!parsed.ok) return refusal(parsed.violations);
  const { id, name, tag } = parsed.plant;
  return {
    ok: true,
    plant: tag === undefined ? { id: id.value, name: name.value } : { id: id.value, name: name.value, tag: tag.value },
  };
}

/** The edit form of plant `id`, checked as the server checks a PUT's body (Plant.parseReplacement). */
export function checkPlantChange(id: PlantId, input: PlantChangeInput): PlantChangeCheck {
  const parsed = Plant.parseReplacement(id, input.tag === '' ? { name: input.name } : input);
  if (!parsed.ok) return refusal(parsed.violations);
  const { name, tag } = parsed.plant;
  return { ok: true, change: tag === undefined ? { name: name.value } : { name: name.value, tag: tag.value } };
}

function refusal(violations: readonly FieldViolation[]): PlantFormRefusal {
  const problems = new Map<PlantField, string>();
  for (const { field, message } of violations) {
    const known = field as PlantField;
    problems.set(known, problems.has(known) ? `${problems.get(known)}; ${message}` : message);
  }
  return { ok: false, sentence: new PlantValidationError(violations).message, problems };
}
