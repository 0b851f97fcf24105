import type { FieldViolation } from '../common/field-violation.js';
import { textViolations } from '../common/text-rules.js';

/** The name of a plant: 1 to 200 code points, kept exactly as sent. */
export class PlantName {
  static readonly MAX_CODE_POINTS = 200;

  private constructor(readonly value: string) {}

  static create(value: string): PlantName | FieldViolation[] {
    const violations = textViolations('name', value, PlantName.MAX_CODE_POINTS);
    return violations.length > 0 ? violations : new PlantName(value);
  }

  toJSON(): string {
    return this.value;
  }
}
