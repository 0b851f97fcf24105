import { isLosslessNumber } from 'lossless-json';

/**
 * The exact text of a JSON number read by this package, or undefined for any other value:
 * the accessor the NewPlant shape check (`checkNewPlantShape`) takes.
 */
export function numberLiteral(value: unknown): string | undefined {
  return isLosslessNumber(value) ? value.value : undefined;
}
