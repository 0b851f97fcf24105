import { Injectable, type PipeTransform } from '@nestjs/common';
import { Plant, PlantValidationError } from '@plantstore/domain';
import type { JsonObject } from '@plantstore/json-reader';
import { plantRecordOf } from '../plant-record.js';

/**
 * The body of POST /plants → a domain Plant. The domain reads it (Plant.parseRecord): each
 * member's presence and JSON type, then its content, every field's problem reported together,
 * in field order, in the words the CLI import uses too.
 */
@Injectable()
export class NewPlantPipe implements PipeTransform<JsonObject, Plant> {
  transform(body: JsonObject): Plant {
    const parsed = Plant.parseRecord(plantRecordOf(body));
    if (parsed.ok) return parsed.plant;
    throw new PlantValidationError(parsed.violations);
  }
}
