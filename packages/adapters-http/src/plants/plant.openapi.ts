import type { Type } from '@nestjs/common';
import { ApiHeader, ApiParam, ApiProperty, ApiQuery, ApiSchema } from '@nestjs/swagger';
import { PlantName, PlantTag } from '@plantstore/domain';

/*
 * What the OpenAPI document says of a plant wherever a route shows one: the Plant schema, its
 * fields, the ETag, the path's id and If-Match. Each route's own text is in its folder.
 */

export const NAME = {
  type: 'string',
  minLength: 1,
  maxLength: PlantName.MAX_CODE_POINTS,
  description: `The name of the plant: 1 to ${PlantName.MAX_CODE_POINTS} Unicode code points, not only white space, no control characters.`,
  example: 'Monstera deliciosa',
} as const;

export const TAG = {
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

export const PLANT_EXAMPLE = { name: 'Monstera deliciosa', tag: 'tropical' };

/**
 * A schema of a plant with its id first (a create's body, a list's item): the same fields as
 * Plant, the id described as the route reads or writes it.
 */
export function plantWithIdSchema(schema: { name: string; description: string }, idDescription: string): Type {
  class PlantWithId {}
  ApiSchema(schema)(PlantWithId);
  ApiProperty({ type: 'integer', format: 'int64', description: idDescription, example: 1 })(
    PlantWithId.prototype,
    'id',
  );
  ApiProperty(NAME)(PlantWithId.prototype, 'name');
  ApiProperty({ ...TAG, required: false })(PlantWithId.prototype, 'tag');
  return PlantWithId;
}

/** The `limit` query parameter of a paged route, from its query's bounds. */
export function limitQuery(bounds: { MAX_LIMIT: number; DEFAULT_LIMIT: number }, description: string): MethodDecorator {
  return ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: bounds.MAX_LIMIT, default: bounds.DEFAULT_LIMIT },
    description,
  });
}

export const ETAG = {
  ETag: {
    description:
      'Strong entity tag of this answer (RFC 9110 §8.8.3): it names the plant and its version, so it is the same on every instance until the plant changes. Opaque: compare it, never parse it.',
    schema: { type: 'string' },
    example: '"42v3"',
  },
};

export const PLANT_ID = ApiParam({
  name: 'id',
  type: 'integer',
  format: 'int64',
  description:
    'The plant id in canonical decimal form: `0`, or an optional `-` and digits without a leading zero, between -9223372036854775808 and 9223372036854775807 (`007`, `+5` and `1e2` are refused with 40004).',
  example: 1,
});

export const IF_MATCH = ApiHeader({
  name: 'If-Match',
  required: false,
  description:
    'ETags from an earlier answer (or `*`): the request applies only while the plant still has one of them, else 412 and nothing changes. Weak tags (`W/"…"`) match nothing.',
});
