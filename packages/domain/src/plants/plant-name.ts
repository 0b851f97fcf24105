import type { FieldViolation } from '../common/field-violation.js';
import { textViolations } from '../common/text-rules.js';
import { plantNameKey } from './plant-name-key.js';

/** The name of a plant: 1 to 200 code points, kept exactly as sent. */
export class PlantName {
  static readonly MAX_CODE_POINTS = 200;

  private constructor(readonly value: string) {}

  /** The name as a search compares it (plant-name-key.ts); a store keeps it beside the name. */
  get key(): string {
    return plantNameKey(this.value);
  }

  static create(value: string): PlantName | FieldViolation[] {
    const violations = textViolations('name', value, PlantName.MAX_CODE_POINTS);
    return violations.length > 0 ? violations : new PlantName(value);
  }

  toJSON(): string {
    return this.value;
  }
}
