import { Plant, PlantNameSearch, type NewPlantInput } from '@plantstore/domain';

/** A plant the suites know to be valid; one that is not fails the test at once, with why. */
export function validPlant(input: NewPlantInput): Plant {
  const parsed = Plant.parse(input);
  if (!parsed.ok) throw new Error(`test plant is invalid: ${JSON.stringify(parsed.violations)}`);
  return parsed.plant;
}

/** A name search the suites know to be valid. */
export function validNameSearch(text: string): PlantNameSearch {
  const search = PlantNameSearch.create(text);
  if (!(search instanceof PlantNameSearch)) throw new Error(`test search is invalid: ${JSON.stringify(text)}`);
  return search;
}
