import type { NewPlant } from '@plantstore/client';
import { Plant, PlantValidationError } from '@plantstore/domain';

/** The add form's fields as typed: an empty tag means "no tag". */
export interface PlantFormInput {
  readonly id: string;
  readonly name: string;
  readonly tag: string;
}

export type PlantField = 'id' | 'name' | 'tag';

export type PlantFormCheck =
  | { readonly ok: true; readonly plant: NewPlant }
  | {
      readonly ok: false;
      /** The sentence the server answers for the same plant (its 400 message). */
      readonly sentence: string;
      /** Each field's problems, for the message beside it. */
      readonly problems: ReadonlyMap<PlantField, string>;
    };

/**
 * The form checked by the domain's own rules before anything is sent: the id as the JSON number
 * the person typed, the name and the tag as the server would read them. The page restates none
 * of the rules, so it refuses exactly what the server refuses, in the same words.
 */
export function checkPlantForm(input: PlantFormInput): PlantFormCheck {
  const parsed = Plant.parse(input.tag === '' ? { id: input.id, name: input.name } : input);
  if (parsed.ok) {
    const { id, name, tag } = parsed.plant;
    return {
      ok: true,
      plant:
        tag === undefined ? { id: id.value, name: name.value } : { id: id.value, name: name.value, tag: tag.value },
    };
  }
  const problems = new Map<PlantField, string>();
  for (const { field, message } of parsed.violations) {
    const known = field as PlantField;
    problems.set(known, problems.has(known) ? `${problems.get(known)}; ${message}` : message);
  }
  return { ok: false, sentence: new PlantValidationError(parsed.violations).message, problems };
}
