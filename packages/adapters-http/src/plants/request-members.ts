import type { FieldViolation } from '@plantstore/domain';
import type { JsonNumber } from '@plantstore/json-reader';
import { validateSync } from 'class-validator';

/** A request body's members once class-validator has judged their types: each as the domain takes it, or its violation. */
export interface CheckedMembers {
  readonly id: string | FieldViolation | undefined;
  readonly name: string | FieldViolation;
  readonly tag: string | FieldViolation | undefined;
}

/** Runs class-validator over a request DTO; a member of the wrong type comes back as its violation. */
export function checkedMembers(dto: {
  readonly id: unknown;
  readonly name: unknown;
  readonly tag: unknown;
}): CheckedMembers {
  const wrongType = new Map<string, FieldViolation>();
  for (const error of validateSync(dto, { stopAtFirstError: true }))
    wrongType.set(error.property, { field: error.property, message: Object.values(error.constraints ?? {})[0]! });
  return {
    id: wrongType.get('id') ?? (dto.id as JsonNumber | undefined)?.literal,
    name: wrongType.get('name') ?? (dto.name as string),
    tag: wrongType.get('tag') ?? (dto.tag as string | undefined),
  };
}
