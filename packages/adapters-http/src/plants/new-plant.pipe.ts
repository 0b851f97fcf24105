import { Injectable, type PipeTransform } from '@nestjs/common';
import { Plant, PlantValidationError, type FieldViolation } from '@plantstore/domain';
import type { JsonNumber, JsonObject } from '@plantstore/json-reader';
import { validateSync } from 'class-validator';
import { NewPlantRequestDto } from './new-plant.request.dto.js';

/**
 * JSON object → domain Plant, each rule checked once: class-validator the members' presence
 * and JSON types, then Plant.parse the content, taking a member of the wrong type as its
 * violation so that every field's problem is reported together, in field order.
 */
@Injectable()
export class NewPlantPipe implements PipeTransform<JsonObject, Plant> {
  transform(body: JsonObject): Plant {
    const dto = new NewPlantRequestDto(body);
    const wrongType = new Map<string, FieldViolation>();
    for (const error of validateSync(dto, { stopAtFirstError: true }))
      wrongType.set(error.property, { field: error.property, message: Object.values(error.constraints ?? {})[0]! });
    const parsed = Plant.parse({
      id: wrongType.get('id') ?? (dto.id as JsonNumber).literal,
      name: wrongType.get('name') ?? (dto.name as string),
      tag: wrongType.get('tag') ?? (dto.tag as string | undefined),
    });
    if (parsed.ok) return parsed.plant;
    throw new PlantValidationError(parsed.violations);
  }
}
