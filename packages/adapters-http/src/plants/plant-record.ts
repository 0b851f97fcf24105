import type { NewPlantRecord } from '@plantstore/domain';
import { numberLiteral, type JsonObject } from '@plantstore/json-reader';

/**
 * A request body as the domain reads a plant from it (Plant.parseRecord): its members, and
 * which of them are JSON numbers, with their exact text (@plantstore/json-reader keeps it).
 */
export function plantRecordOf(body: JsonObject): NewPlantRecord {
  return { fields: body, numberLiteral };
}
