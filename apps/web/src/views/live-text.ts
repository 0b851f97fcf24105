import type { PlantFeedChange } from '@plantstore/client';
import type { PageChange } from '../catalogue-pages.js';

/** A plant's name and tag as an announcement says them. */
export function nameAndTag(name: string, tag: string | undefined): string {
  return tag === undefined ? `“${name}”, without a tag` : `“${name}”, tagged “${tag}”`;
}

/** What a change made elsewhere did to the catalogue page shown, as one polite sentence. */
export function pageChangeText(change: PageChange, tag: string | undefined): string {
  const { id, name } = change.plant;
  switch (change.kind) {
    case 'changed':
      return `Plant ${id} was changed: now ${nameAndTag(name, change.plant.tag)}.`;
    case 'added':
      return `Plant ${id}, ${nameAndTag(name, change.plant.tag)}, was added to this page.`;
    case 'removed':
      return change.deleted || tag === undefined
        ? `Plant ${id}, “${name}”, was deleted.`
        : `Plant ${id}, “${name}”, is no longer tagged “${tag}”.`;
  }
}

/** A live plant's state from the feed, or undefined for a deletion. */
export function liveContent(change: PlantFeedChange): { name: string; tag: string | undefined } | undefined {
  return change.deleted ? undefined : { name: change.name, tag: change.tag };
}
