import { Injectable, type PipeTransform } from '@nestjs/common';
import { Plant, PlantValidationError, type FieldViolation } from '@plantstore/domain';
import { validateSync } from 'class-validator';
import type { JsonObject } from '../body/parse-json.js';
import { NewPlantRequestDto } from './new-plant.request.dto.js';

/**
 * JSON object → domain Plant. Shape problems (class-validator) and content problems (domain
 * value objects) of all fields are reported together in one PlantValidationError.
 * Only the three known fields are copied: extra properties never reach an object.
 */
@Injectable()
export class NewPlantPipe implements PipeTransform<JsonObject, Plant> {
  transform(body: JsonObject): Plant {
    const dto = Object.assign(new NewPlantRequestDto(), {
      id: own(body, 'id'),
      name: own(body, 'name'),
      tag: own(body, 'tag'),
    });
    const badShape = new Map<string, FieldViolation>();
    for (const error of validateSync(dto, { stopAtFirstError: true })) {
      badShape.set(error.property, { field: error.property, message: Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid` });
    }
    // A field of the wrong type goes to the domain as its violation, so all fields are reported in order.
    const parsed = Plant.parse({
      id: badShape.get('id') ?? dto.id.value,
      name: badShape.get('name') ?? dto.name,
      tag: badShape.get('tag') ?? dto.tag,
    });
    if (parsed.ok) return parsed.plant;
    throw new PlantValidationError(parsed.violations);
  }
}

function own(body: JsonObject, key: string): unknown {
  return Object.hasOwn(body, key) ? body[key] : undefined;
}
