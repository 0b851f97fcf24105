import type { PlantFeedEntry, PositionedFeedEntry } from '@plantstore/domain';

/**
 * One feed entry as JSON text: `{"id", "version", "name", "tag"?}` for a live plant,
 * `{"id", "version", "deleted": true}` for a deleted one. The id is written as its exact
 * digits (an int64 JSON number), never through a JS number, as the list writes it.
 */
export function feedEntryJson(entry: PlantFeedEntry): string {
  if (entry.deleted) return `{"id":${entry.id.toString()},"version":${entry.version},"deleted":true}`;
  const { plant, version } = entry;
  const tag = plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag.value)}`;
  return `{"id":${plant.id.toString()},"version":${version},"name":${JSON.stringify(plant.name.value)}${tag}}`;
}

/** The JSON answer of GET /plants/changes: `{"changes": [...], "next": "<cursor>"}`. */
export function changesPageBody(changes: readonly PositionedFeedEntry[], next: string): string {
  return `{"changes":[${changes.map(({ entry }) => feedEntryJson(entry)).join(',')}],"next":${JSON.stringify(next)}}`;
}

/** One Server-Sent Event of a change stream; its id is the cursor right after the entry. */
export function changeEventText(entry: PlantFeedEntry, cursor: string): string {
  return `id: ${cursor}\nevent: change\ndata: ${feedEntryJson(entry)}\n\n`;
}

/** An SSE comment line: keeps proxies from closing a stream that has had nothing to say. */
export const HEARTBEAT_TEXT = ': still here\n\n';
