import type { PlantPrecondition } from '@plantstore/domain';
import { ifMatchTags } from '../http/entity-tags.js';

// The tags versionTag writes; any other names no version of a plant.
const VERSION_TAG = /^"([1-9][0-9]{0,14})"$/;

/**
 * `If-Match` as the versions the caller expects (versionTag read back). Absent or `*` (any
 * current plant): no precondition. Tags that name no version, weak ones included, match
 * nothing: a list of only those fails.
 */
export function preconditionOf(ifMatch: string | undefined): PlantPrecondition | undefined {
  const tags = ifMatchTags(ifMatch);
  if (tags === undefined || tags === '*') return undefined;
  return { versions: tags.flatMap((tag) => VERSION_TAG.exec(tag)?.slice(1).map(Number) ?? []) };
}
