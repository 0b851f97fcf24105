import { Plant, type NewPlantInput } from '@plantstore/domain';

/** Valid plant inputs by default; each test overrides only what it is about. */
export const PlantInputMother = {
  valid: (overrides: Partial<NewPlantInput> = {}): NewPlantInput => ({
    id: '1',
    name: 'Monstera deliciosa',
    ...overrides,
  }),
  withTag: (tag: string, overrides: Partial<NewPlantInput> = {}): NewPlantInput => ({
    id: '1',
    name: 'Monstera deliciosa',
    tag,
    ...overrides,
  }),
  /** Broken in every field at once: a fractional id, an empty name, a tag with a NUL. */
  invalidEverywhere: (): NewPlantInput => ({ id: '1.5', name: '', tag: 'fern\u0000' }),
};

/** A Plant that must be valid; throws with the violations when the test itself is wrong. */
export function validPlant(input: NewPlantInput = PlantInputMother.valid()): Plant {
  const parsed = Plant.parse(input);
  if (!parsed.ok) throw new Error(`test input is invalid: ${JSON.stringify(parsed.violations)}`);
  return parsed.plant;
}
