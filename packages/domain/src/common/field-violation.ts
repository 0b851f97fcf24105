/** One broken rule of one input field, phrased for the person who sent it. */
export interface FieldViolation {
  readonly field: string;
  readonly message: string;
}

export function describeViolations(violations: readonly FieldViolation[]): string {
  return violations.map((v) => v.message).join('; ');
}
