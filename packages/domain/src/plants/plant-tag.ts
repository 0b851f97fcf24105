import type { FieldViolation } from '../common/field-violation.js';
import { textViolations } from '../common/text-rules.js';

/** The optional tag that says what type of plant it is: 1 to 64 code points. */
export class PlantTag {
  static readonly MAX_CODE_POINTS = 64;

  private constructor(readonly value: string) {}

  static create(value: string): PlantTag | FieldViolation[] {
    const violations = textViolations('tag', value, PlantTag.MAX_CODE_POINTS);
    return violations.length > 0 ? violations : new PlantTag(value);
  }

  toJSON(): string {
    return this.value;
  }
}
