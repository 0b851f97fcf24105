import type { Plant } from '@plantstore/domain';
import { stringify } from 'csv-stringify/sync';
import type { FileFormat } from './file-formats.js';

export const CSV_HEADER = 'id,name,tag\n';

/**
 * Plants as lines of an import file: export writes them, import reads them back. NDJSON
 * writes the id as a bare number with all its digits (Plant.toJsonText); CSV quotes what
 * needs quoting.
 */
export function formatPlants(plants: readonly Plant[], fileFormat: FileFormat): string {
  if (fileFormat === 'csv')
    return stringify(plants.map((plant) => [plant.id.toString(), plant.name.value, plant.tag?.value ?? '']));
  let text = '';
  for (const plant of plants) text += `${plant.toJsonText()}\n`;
  return text;
}
