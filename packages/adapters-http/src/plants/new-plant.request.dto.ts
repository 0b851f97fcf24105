import { IsDefined, IsString, ValidateBy, ValidateIf } from 'class-validator';
import { isLosslessNumber, type LosslessNumber } from '../body/parse-json.js';

const IsJsonNumber = () =>
  ValidateBy({ name: 'isJsonNumber', validator: { validate: (value: unknown) => isLosslessNumber(value) } }, { message: 'id must be a JSON number' });

/**
 * The JSON shape of NewPlant: which fields must be present and of which JSON type. Content
 * rules (int64 range, code points, control characters) belong to the domain value objects,
 * since class-validator counts UTF-16 units, not code points.
 */
export class NewPlantRequestDto {
  @IsDefined({ message: 'id is required' })
  @IsJsonNumber()
  id!: LosslessNumber;

  @IsDefined({ message: 'name is required' })
  @IsString({ message: 'name must be a string' })
  name!: string;

  // Present means string: null is refused (the schema says string), absent is fine.
  @ValidateIf((dto: NewPlantRequestDto) => dto.tag !== undefined)
  @IsString({ message: 'tag must be a string if present; omit it for no tag' })
  tag?: string;
}
