import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { PlantPageQuery, PlantQueryError } from '@plantstore/domain';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../errors/api-error.js';
import { Failures } from '../../errors/failures.js';

/** The query parameters of GET /plants; any other is refused. */
export const LIST_PARAMETERS = ['tags', 'name', 'limit', 'after'] as const;

type RawQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * The query string of GET /plants as the domain's PlantPageQuery. The transport's own checks
 * (no unknown parameter, `name`, `limit` and `after` at most once) come first; the domain words the rest.
 * Evaluated after the guards, so a caller without a token learns nothing about the query.
 */
export const PlantPageQueryParam = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  plantPageQueryOf((context.switchToHttp().getRequest<FastifyRequest>().query ?? {}) as RawQuery),
);

export function plantPageQueryOf(query: RawQuery): PlantPageQuery {
  for (const name of Object.keys(query)) {
    if ((LIST_PARAMETERS as readonly string[]).includes(name)) continue;
    throw new ApiError(Failures.unknownQueryParameter(name, LIST_PARAMETERS));
  }
  const parsed = PlantPageQuery.parse({
    tags: listOf(query['tags']),
    name: once(query, 'name'),
    limit: once(query, 'limit'),
    after: once(query, 'after'),
  });
  if (!parsed.ok) throw new PlantQueryError(parsed.violations);
  return parsed.query;
}

function listOf(value: string | readonly string[] | undefined): readonly string[] {
  return value === undefined ? [] : typeof value === 'string' ? [value] : value;
}

function once(query: RawQuery, name: 'name' | 'limit' | 'after'): string | undefined {
  const value = query[name];
  if (value === undefined || typeof value === 'string') return value;
  throw new ApiError(Failures.repeatedQueryParameter(name));
}
