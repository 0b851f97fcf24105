import type { FieldViolation } from '../common/field-violation.js';
import { ChangeCursor, MAX_CURSOR_LENGTH } from './change-cursor.js';
import type { FeedPosition } from './feed-position.js';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const CANONICAL_LIMIT = /^[1-9][0-9]{0,3}$/;

/** A feed request as a transport carries it: every value still text, each optional. */
export interface ChangesQueryInput {
  /** A cursor from an earlier answer; from the beginning when absent. */
  readonly after?: string | undefined;
  /** A whole number from 1 to 1000 in canonical decimal form; 100 when absent. */
  readonly limit?: string | undefined;
  /** How the transport names the cursor in a violation (`after`, or `Last-Event-ID` for a stream). */
  readonly afterName?: string | undefined;
}

export type ChangesQueryParseResult =
  | { readonly ok: true; readonly query: ChangesQuery }
  | { readonly ok: false; readonly violations: readonly FieldViolation[] };

/**
 * A checked request for one page of the change feed. A cursor that this codec did not write
 * (malformed or altered) is refused here; one beyond the store's newest position is refused by
 * FollowChanges, which asks the store.
 */
export class ChangesQuery {
  static readonly DEFAULT_LIMIT = DEFAULT_LIMIT;
  static readonly MAX_LIMIT = MAX_LIMIT;

  private constructor(
    readonly after: FeedPosition | undefined,
    readonly limit: number,
    /** The parameter that carried the cursor, for a violation found later. */
    readonly afterName: string,
  ) {}

  /** Applies every rule and reports all violations at once, in parameter order (after, limit). */
  static parse(input: ChangesQueryInput): ChangesQueryParseResult {
    const violations: FieldViolation[] = [];
    const afterName = input.afterName ?? 'after';
    const after = input.after === undefined ? undefined : ChangeCursor.decode(input.after);
    if (input.after !== undefined && after === undefined)
      violations.push({
        field: afterName,
        message: `${afterName} must be a cursor this store handed out (an opaque text of at most ${MAX_CURSOR_LENGTH} characters, unaltered)`,
      });
    const limit = input.limit === undefined ? DEFAULT_LIMIT : limitOf(input.limit);
    if (limit === undefined)
      violations.push({
        field: 'limit',
        message: `limit must be a whole number from 1 to ${MAX_LIMIT} in canonical decimal form (no sign, no leading zero)`,
      });
    if (violations.length > 0 || limit === undefined) return { ok: false, violations };
    return { ok: true, query: new ChangesQuery(after, limit, afterName) };
  }
}

function limitOf(text: string): number | undefined {
  if (!CANONICAL_LIMIT.test(text)) return undefined;
  const value = Number(text);
  return value <= MAX_LIMIT ? value : undefined;
}
