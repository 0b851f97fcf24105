import { checkNewPlantShape, type FieldViolation, type UncheckedNewPlant } from '@plantstore/domain';
import { numberLiteral, type JsonObject } from '@plantstore/json-reader';
import {
  Validate,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';

type Field = keyof UncheckedNewPlant;

/** The domain's verdict on one field, as checked once for the whole body: its violation, if any. */
function shapeViolation({ object, property }: ValidationArguments): FieldViolation | undefined {
  const checked = (object as NewPlantRequestDto).shape[property as Field];
  return typeof checked === 'object' ? checked : undefined;
}

/** class-validator's view of the domain's NewPlant shape rules (checkNewPlantShape), with their messages. */
@ValidatorConstraint({ name: 'newPlantShape' })
class FollowsNewPlantShape implements ValidatorConstraintInterface {
  validate(_value: unknown, args: ValidationArguments): boolean {
    return shapeViolation(args) === undefined;
  }

  defaultMessage(args: ValidationArguments): string {
    return shapeViolation(args)?.message ?? '';
  }
}

/**
 * The JSON shape of NewPlant: which fields must be present and of which JSON type. The rules
 * and messages are the domain's, so the CLI import reports the same. Content rules (int64
 * range, code points, control characters) belong to the domain value objects, applied by
 * Plant.parse. Only the three known fields are copied: extra properties never reach an object.
 */
export class NewPlantRequestDto {
  @Validate(FollowsNewPlantShape)
  readonly id: unknown;

  @Validate(FollowsNewPlantShape)
  readonly name: unknown;

  @Validate(FollowsNewPlantShape)
  readonly tag: unknown;

  /**
   * The domain's shape check, run once per body: class-validator reports its verdicts and
   * Plant.parse takes the checked fields (an id as its exact literal) from here.
   */
  readonly shape: UncheckedNewPlant;

  constructor(body: JsonObject) {
    this.shape = checkNewPlantShape(body, numberLiteral);
    this.id = own(body, 'id');
    this.name = own(body, 'name');
    this.tag = own(body, 'tag');
  }
}

function own(body: JsonObject, key: string): unknown {
  return Object.hasOwn(body, key) ? body[key] : undefined;
}
