import { Injectable, type PipeTransform } from '@nestjs/common';
import { Plant, PlantId, PlantName, PlantTag, PlantValidationError, type FieldViolation } from '@plantstore/domain';
import { validateSync } from 'class-validator';
import type { JsonObject } from '../body/parse-json.js';
import { NewPlantRequestDto } from './new-plant.request.dto.js';

const FIELDS = ['id', 'name', 'tag'] as const;

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
    const shapeErrors = validateSync(dto, { stopAtFirstError: true });
    if (shapeErrors.length === 0) {
      const parsed = Plant.parse({ id: dto.id.value, name: dto.name, tag: dto.tag });
      if (parsed.ok) return parsed.plant;
      throw new PlantValidationError(parsed.violations);
    }
    const badShape = new Map(shapeErrors.map((e) => [e.property, Object.values(e.constraints ?? {})[0] ?? `${e.property} is invalid`]));
    const violations = FIELDS.flatMap((field): FieldViolation[] => {
      const message = badShape.get(field);
      return message !== undefined ? [{ field, message }] : contentViolations(field, dto);
    });
    throw new PlantValidationError(violations);
  }
}

function own(body: JsonObject, key: string): unknown {
  return Object.hasOwn(body, key) ? body[key] : undefined;
}

function contentViolations(field: (typeof FIELDS)[number], dto: NewPlantRequestDto): FieldViolation[] {
  if (field === 'id') {
    const id = PlantId.fromLiteral(dto.id.value);
    return id instanceof PlantId ? [] : [id];
  }
  if (field === 'name') {
    const name = PlantName.create(dto.name);
    return name instanceof PlantName ? [] : name;
  }
  if (dto.tag === undefined) return [];
  const tag = PlantTag.create(dto.tag);
  return tag instanceof PlantTag ? [] : tag;
}
