import { NewPlantShape } from '@plantstore/domain';
import { JsonNumber, type JsonObject } from '@plantstore/json-reader';
import { IsDefined, IsInstance, IsString, ValidateIf } from 'class-validator';

/**
 * What HTTP owns of a plant's body: which members must be present, and of which JSON type.
 * The messages are the domain's (NewPlantShape), so the API and the CLI import word a wrong
 * type alike. Content rules (int64 range, code points, control characters) are the domain's
 * alone, applied by Plant.parse; none is restated here. Only the known members are copied:
 * other properties never reach an object.
 */
abstract class PlantContentRequestDto {
  @IsDefined({ message: NewPlantShape.nameRequired.message })
  @IsString({ message: NewPlantShape.nameNotString.message })
  readonly name: unknown;

  // Absent is no tag; present (null included) it must be a string.
  @ValidateIf((dto: PlantContentRequestDto) => dto.tag !== undefined)
  @IsString({ message: NewPlantShape.tagNotString.message })
  readonly tag: unknown;

  abstract readonly id: unknown;

  constructor(body: JsonObject) {
    this.name = own(body, 'name');
    this.tag = own(body, 'tag');
  }
}

/** The body of POST /plants: the id is required. */
export class NewPlantRequestDto extends PlantContentRequestDto {
  // A JSON number read by @plantstore/json-reader keeps its literal: the id's exact digits.
  @IsDefined({ message: NewPlantShape.idRequired.message })
  @IsInstance(JsonNumber, { message: NewPlantShape.idNotNumber.message })
  readonly id: unknown;

  constructor(body: JsonObject) {
    super(body);
    this.id = own(body, 'id');
  }
}

/** The body of PUT /plants/{id}: the id may be left out (the path names the plant). */
export class PlantReplacementRequestDto extends PlantContentRequestDto {
  @ValidateIf((dto: PlantReplacementRequestDto) => dto.id !== undefined)
  @IsInstance(JsonNumber, { message: NewPlantShape.idNotNumber.message })
  readonly id: unknown;

  constructor(body: JsonObject) {
    super(body);
    this.id = own(body, 'id');
  }
}

function own(body: JsonObject, key: string): unknown {
  return Object.hasOwn(body, key) ? body[key] : undefined;
}
