import { Injectable, type PipeTransform } from '@nestjs/common';
import { Plant, PlantValidationError } from '@plantstore/domain';
import type { JsonObject } from '@plantstore/json-reader';
import { NewPlantRequestDto } from './new-plant.request.dto.js';
import { checkedMembers } from './request-members.js';

/**
 * JSON object → domain Plant, each rule checked once: class-validator the members' presence
 * and JSON types, then Plant.parse the content, taking a member of the wrong type as its
 * violation so that every field's problem is reported together, in field order.
 */
@Injectable()
export class NewPlantPipe implements PipeTransform<JsonObject, Plant> {
  transform(body: JsonObject): Plant {
    const { id, name, tag } = checkedMembers(new NewPlantRequestDto(body));
    const parsed = Plant.parse({ id: id!, name, tag });
    if (parsed.ok) return parsed.plant;
    throw new PlantValidationError(parsed.violations);
  }
}
