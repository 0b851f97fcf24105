import { NewPlantShape } from '@plantstore/domain';
import { IsDefined, IsString, ValidateBy, ValidateIf } from 'class-validator';
import { isLosslessNumber, type LosslessNumber } from '../body/parse-json.js';

const IsJsonNumber = () =>
  ValidateBy({ name: 'isJsonNumber', validator: { validate: (value: unknown) => isLosslessNumber(value) } }, { message: NewPlantShape.idNotNumber.message });

/**
 * The JSON shape of NewPlant: which fields must be present and of which JSON type, with the
 * domain's messages (the CLI import reports the same). Content rules (int64 range, code
 * points, control characters) belong to the domain value objects, since class-validator
 * counts UTF-16 units, not code points.
 */
export class NewPlantRequestDto {
  @IsDefined({ message: NewPlantShape.idRequired.message })
  @IsJsonNumber()
  id!: LosslessNumber;

  @IsDefined({ message: NewPlantShape.nameRequired.message })
  @IsString({ message: NewPlantShape.nameNotString.message })
  name!: string;

  // Present means string: null is refused (the schema says string), absent is fine.
  @ValidateIf((dto: NewPlantRequestDto) => dto.tag !== undefined)
  @IsString({ message: NewPlantShape.tagNotString.message })
  tag?: string;
}
