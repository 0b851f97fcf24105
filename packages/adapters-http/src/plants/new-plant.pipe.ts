import { Injectable, type PipeTransform } from '@nestjs/common';
import { Plant, PlantValidationError, type FieldViolation } from '@plantstore/domain';
import type { JsonObject } from '@plantstore/json-reader';
import { validateSync } from 'class-validator';
import { NewPlantRequestDto } from './new-plant.request.dto.js';

/**
 * JSON object → domain Plant. Shape problems (the DTO) and content problems (domain value
 * objects) of all fields are reported together in one PlantValidationError.
 */
@Injectable()
export class NewPlantPipe implements PipeTransform<JsonObject, Plant> {
  transform(body: JsonObject): Plant {
    const dto = new NewPlantRequestDto(body);
    const badShape = new Map<string, FieldViolation>();
    for (const error of validateSync(dto, { stopAtFirstError: true })) {
      badShape.set(error.property, { field: error.property, message: Object.values(error.constraints ?? {})[0] ?? '' });
    }
    // A field of the wrong type goes to the domain as its violation, so all fields are reported in order.
    const { shape } = dto;
    const parsed = Plant.parse({
      id: badShape.get('id') ?? shape.id,
      name: badShape.get('name') ?? shape.name,
      tag: badShape.get('tag') ?? shape.tag,
    });
    if (parsed.ok) return parsed.plant;
    throw new PlantValidationError(parsed.violations);
  }
}
