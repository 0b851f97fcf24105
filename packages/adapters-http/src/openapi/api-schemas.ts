import { ApiProperty, ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';
import { PlantName, PlantTag } from '@plantstore/domain';
import { ErrorCode } from '../errors/error-codes.js';

// Schemas of the OpenAPI document only: the request is read and checked by the JSON reader,
// NewPlantRequestDto and the domain, the response built by toPlantResponse. The names are
// the spec's (Plant, NewPlant, Error): generated clients depend on them.

const NAME = {
  type: 'string',
  minLength: 1,
  maxLength: PlantName.MAX_CODE_POINTS,
  description: `The name of the plant: 1 to ${PlantName.MAX_CODE_POINTS} Unicode code points, not only white space, no control characters.`,
  example: 'Monstera deliciosa',
} as const;

const TAG = {
  type: 'string',
  minLength: 1,
  maxLength: PlantTag.MAX_CODE_POINTS,
  description: `Tag that specifies the type of the plant: 1 to ${PlantTag.MAX_CODE_POINTS} code points; absent when the plant has none.`,
  example: 'tropical',
} as const;

@ApiSchema({
  name: 'Plant',
  description: 'A plant as the store answers it: its name, and its tag when it has one (never the id).',
})
export class PlantSchema {
  @ApiProperty(NAME)
  readonly name!: string;

  @ApiProperty({ ...TAG, required: false })
  readonly tag?: string;
}

@ApiSchema({
  name: 'PlantListItem',
  description: 'A plant in a list: its id (exact int64 digits), its name, and its tag when it has one.',
})
export class PlantListItemSchema {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    description:
      'Identification number of the plant, written with its exact digits: values beyond 2^53 need a JSON parser that keeps big integers.',
    example: 1,
  })
  readonly id!: number;

  @ApiProperty(NAME)
  readonly name!: string;

  @ApiProperty({ ...TAG, required: false })
  readonly tag?: string;
}

@ApiSchema({ name: 'NewPlant', description: 'A Plant plus its required id, chosen by the client.' })
export class NewPlantSchema {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    description:
      'Identification number of the plant: any integer in the int64 range, kept exactly (1.0 and 1e2 are integers).',
    example: 1,
  })
  readonly id!: number;

  @ApiProperty(NAME)
  readonly name!: string;

  @ApiProperty({ ...TAG, required: false })
  readonly tag?: string;
}

@ApiSchema({
  name: 'PlantReplacement',
  description: 'A plant’s new name and tag (PUT): without `tag` the plant has none; an `id` must be the path’s.',
})
export class PlantReplacementSchema {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    required: false,
    description: 'Optional: when sent, it must denote the id in the path (a plant cannot move to another id).',
    example: 1,
  })
  readonly id?: number;

  @ApiProperty(NAME)
  readonly name!: string;

  @ApiProperty({ ...TAG, required: false })
  readonly tag?: string;
}

@ApiSchema({ name: 'Error', description: 'The body of every non-2xx response.' })
export class ErrorSchema {
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    description: 'Stable application error code (see the table in the API description).',
    example: ErrorCode.ValidationFailed,
  })
  readonly error!: number;

  @ApiProperty({
    type: 'string',
    description: 'What went wrong, as a sentence a person can act on.',
    example: 'name must not be empty.',
  })
  readonly message!: string;
}

@ApiSchema({ name: 'Health', description: 'The outcome of a health check.' })
export class HealthSchema {
  @ApiProperty({ type: 'string', enum: ['ok'], description: '`ok` when the check passed.', example: 'ok' })
  readonly status!: 'ok';
}

const INDICATORS = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    required: ['status'],
    properties: { status: { type: 'string', enum: ['up', 'down'] } },
  },
  selfRequired: false,
} satisfies ApiPropertyOptions;

@ApiSchema({ name: 'Readiness', description: 'The readiness check: the state of each dependency (only the database).' })
export class ReadinessSchema {
  @ApiProperty({ type: 'string', enum: ['ok'], description: '`ok` when every dependency is up.', example: 'ok' })
  readonly status!: 'ok';

  @ApiProperty({ ...INDICATORS, description: 'The dependencies that are up.', example: { database: { status: 'up' } } })
  readonly info?: object;

  @ApiProperty({ ...INDICATORS, description: 'The dependencies that are down (none when ready).', example: {} })
  readonly error?: object;

  @ApiProperty({ ...INDICATORS, description: 'Every dependency.', example: { database: { status: 'up' } } })
  readonly details?: object;
}

/** Closed schemas: the contract check of the e2e suites then catches a field the document does not list. */
export const CLOSED_SCHEMAS = ['Plant', 'PlantListItem', 'Error'] as const;
