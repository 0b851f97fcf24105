import type { PlantId, PlantPrecondition } from '@plantstore/domain';
import { ifMatchTags } from '../http/entity-tags.js';

// A version as versionTag writes it, after the id: what no version is (0, a leading zero, past 2^53) names none.
const VERSION = /^[1-9][0-9]{0,14}$/;

/**
 * `If-Match` on plant `id` as the versions the caller expects (versionTag read back). Absent or
 * `*` (any current plant): no precondition. A tag that names no version of this plant (another
 * plant's, a weak one, one this server never wrote) matches nothing: a list of only those fails.
 */
export function preconditionOf(ifMatch: string | undefined, id: PlantId): PlantPrecondition | undefined {
  const tags = ifMatchTags(ifMatch);
  if (tags === undefined || tags === '*') return undefined;
  const prefix = `"${id.toString()}v`;
  const versions = tags
    .filter((tag) => tag.startsWith(prefix) && tag.endsWith('"'))
    .map((tag) => tag.slice(prefix.length, -1))
    .filter((version) => VERSION.test(version))
    .map(Number);
  return { versions };
}
