import type { FieldViolation } from '../common/field-violation.js';
import { textViolations } from '../common/text-rules.js';
import { plantNameKey } from './plant-name-key.js';
import { PlantName } from './plant-name.js';

/**
 * A text to find in plant names (GET /plants?name=…): a name's rules (1 to 200 code points, not
 * only white space, no control characters or lone surrogates), and something left to compare
 * once case and accents are set aside. A plant matches when its name's key contains `key`.
 */
export class PlantNameSearch {
  static readonly MAX_CODE_POINTS = PlantName.MAX_CODE_POINTS;

  private constructor(
    /** The text as sent. */
    readonly value: string,
    /** `plantNameKey(value)`: what the stored keys are searched for. */
    readonly key: string,
  ) {}

  /** Violations name the parameter `name`. */
  static create(value: string): PlantNameSearch | FieldViolation[] {
    const violations = textViolations('name', value, PlantNameSearch.MAX_CODE_POINTS);
    if (violations.length > 0) return violations;
    const key = plantNameKey(value);
    if (key.length === 0)
      return [{ field: 'name', message: 'name must hold more than accents and other combining marks' }];
    return new PlantNameSearch(value, key);
  }

  /** Whether a plant of this name matches. */
  matches(name: PlantName): boolean {
    return name.key.includes(this.key);
  }

  toJSON(): string {
    return this.value;
  }
}
