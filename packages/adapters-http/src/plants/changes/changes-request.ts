import { ChangesQuery, PlantQueryError } from '@plantstore/domain';
import { ApiError } from '../../errors/api-error.js';
import { Failures } from '../../errors/failures.js';

/** The query parameters of GET /plants/changes; any other is refused. */
export const CHANGES_PARAMETERS = ['after', 'limit'] as const;
/** The header a reconnecting EventSource sends its last event's id in; it wins over `after`. */
export const LAST_EVENT_ID = 'Last-Event-ID';

type RawQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * GET /plants/changes's query (and, for a stream, its Last-Event-ID header) as the domain's
 * ChangesQuery. The transport's own checks (no unknown parameter, each at most once) come first;
 * the domain words the rest. Evaluated after the guards, so a caller without a token learns
 * nothing about the query.
 */
export function changesQueryOf(query: RawQuery, lastEventId: string | undefined): ChangesQuery {
  for (const name of Object.keys(query))
    if (!(CHANGES_PARAMETERS as readonly string[]).includes(name))
      throw new ApiError(Failures.unknownQueryParameter(name, CHANGES_PARAMETERS));
  const after = once(query, 'after');
  const limit = once(query, 'limit');
  // EventSource sends the header only when it has an id; an empty one stands for none.
  const resumed = lastEventId !== undefined && lastEventId !== '';
  const parsed = ChangesQuery.parse({
    after: resumed ? lastEventId : after,
    limit,
    afterName: resumed ? LAST_EVENT_ID : 'after',
  });
  if (!parsed.ok) throw new PlantQueryError(parsed.violations);
  return parsed.query;
}

function once(query: RawQuery, name: (typeof CHANGES_PARAMETERS)[number]): string | undefined {
  const value = query[name];
  if (value === undefined || typeof value === 'string') return value;
  throw new ApiError(Failures.repeatedQueryParameter(name));
}

/** Whether the client asks for the live stream: its Accept names text/event-stream (with a weight above 0). */
export function wantsEventStream(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  return accept.split(',').some((range) => {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== 'text/event-stream') return false;
    const weight = parameters.find((p) => p.startsWith('q='));
    return weight === undefined || Number(weight.slice(2)) > 0;
  });
}
