import { ApiProperty, ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';
import { ErrorCode } from '../errors/error-codes.js';

// Schemas of the OpenAPI document only, those every route shares; a plant route's own are in
// its folder (plants/). The names are the spec's (Error): generated clients depend on them.

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
