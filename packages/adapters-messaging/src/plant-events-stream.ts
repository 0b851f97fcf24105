import type { PlantEventJson } from '@plantstore/domain';

/**
 * Where plant events go (docs/events.md). Fixed names, so every instance of the service and
 * every consumer agree without configuration: one stream, one subject per kind of event.
 */
export const PLANT_EVENTS_STREAM = 'PLANTSTORE_PLANTS';
export const PLANT_CREATED_SUBJECT = 'plantstore.plants.created';
export const PLANT_UPDATED_SUBJECT = 'plantstore.plants.updated';
export const PLANT_DELETED_SUBJECT = 'plantstore.plants.deleted';
/** Every subject of the stream: what it holds, and what a consumer of all plant events filters on. */
export const PLANT_EVENT_SUBJECTS = 'plantstore.plants.>';
/** JetStream drops a message whose id it saw within this window (its default too). */
export const DUPLICATE_WINDOW_MS = 2 * 60_000;

const SUBJECTS: Readonly<Record<PlantEventJson['type'], string>> = {
  PlantCreated: PLANT_CREATED_SUBJECT,
  PlantUpdated: PLANT_UPDATED_SUBJECT,
  PlantDeleted: PLANT_DELETED_SUBJECT,
};

/** The subject an event of this type is published on. */
export function subjectOf(type: PlantEventJson['type']): string {
  return SUBJECTS[type];
}
