import type { FieldViolation } from '../common/field-violation.js';
import { textViolations } from '../common/text-rules.js';
import { PlantId } from './plant-id.js';
import { PlantNameSearch } from './plant-name-search.js';
import type { PlantPageRequest } from './plant-reader.js';
import { PlantTag } from './plant-tag.js';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const CANONICAL_LIMIT = /^[1-9][0-9]{0,3}$/;

/** A list request as a transport carries it: every value still text, each parameter optional. */
export interface PlantPageQueryInput {
  /** Repeatable: only plants whose tag equals one of these. */
  readonly tags?: readonly string[] | undefined;
  /** Text to find in plant names, case- and accent-insensitive (PlantNameSearch). */
  readonly name?: string | undefined;
  /** A whole number from 1 to 1000 in canonical decimal form; 100 when absent. */
  readonly limit?: string | undefined;
  /** An id in canonical decimal form (PlantId.fromCanonical): only plants with a greater id. */
  readonly after?: string | undefined;
}

export type PlantPageQueryParseResult =
  | { readonly ok: true; readonly query: PlantPageQuery }
  | { readonly ok: false; readonly violations: readonly FieldViolation[] };

/**
 * A checked request for one page of plants: the tags to keep, the text to find in names, the
 * page size and the cursor. Each violation names its parameter (`tags`, `name`, `limit`,
 * `after`), so a transport can repeat it
 * to the person who sent it.
 */
export class PlantPageQuery implements PlantPageRequest {
  static readonly DEFAULT_LIMIT = DEFAULT_LIMIT;
  static readonly MAX_LIMIT = MAX_LIMIT;

  private constructor(
    readonly tags: readonly PlantTag[],
    readonly name: PlantNameSearch | undefined,
    readonly limit: number,
    readonly after: PlantId | undefined,
  ) {}

  /** Applies every rule and reports all violations at once, in parameter order (tags, name, limit, after). */
  static parse(input: PlantPageQueryInput): PlantPageQueryParseResult {
    const violations: FieldViolation[] = [];
    const tags: PlantTag[] = [];
    for (const text of input.tags ?? []) {
      const tag = PlantTag.create(text);
      if (tag instanceof PlantTag) tags.push(tag);
      // The same rule as a plant's tag, worded for the query parameter.
      else violations.push(...textViolations('tags', text, PlantTag.MAX_CODE_POINTS));
    }
    const name = input.name === undefined ? undefined : PlantNameSearch.create(input.name);
    if (Array.isArray(name)) violations.push(...name);
    const limit = input.limit === undefined ? DEFAULT_LIMIT : limitOf(input.limit);
    if (limit === undefined)
      violations.push({
        field: 'limit',
        message: `limit must be a whole number from 1 to ${MAX_LIMIT} in canonical decimal form (no sign, no leading zero)`,
      });
    const after = input.after === undefined ? undefined : PlantId.fromCanonical(input.after, 'after');
    if (after !== undefined && !(after instanceof PlantId)) violations.push(after);
    if (
      violations.length > 0 ||
      limit === undefined ||
      Array.isArray(name) ||
      !(after === undefined || after instanceof PlantId)
    )
      return { ok: false, violations };
    return { ok: true, query: new PlantPageQuery(tags, name, limit, after) };
  }

  /** The same query for the page after the one that ended with `lastId`. */
  continuingAfter(lastId: PlantId): PlantPageQuery {
    return new PlantPageQuery(this.tags, this.name, this.limit, lastId);
  }

  /** The query as a transport writes it back: tags, the name text and the cursor when there are, limit. */
  toJSON(): { tags: string[]; name?: string; limit: number; after?: string } {
    return {
      tags: this.tags.map((tag) => tag.value),
      ...(this.name === undefined ? {} : { name: this.name.value }),
      limit: this.limit,
      ...(this.after === undefined ? {} : { after: this.after.toString() }),
    };
  }
}

function limitOf(text: string): number | undefined {
  if (!CANONICAL_LIMIT.test(text)) return undefined;
  const value = Number(text);
  return value <= MAX_LIMIT ? value : undefined;
}
