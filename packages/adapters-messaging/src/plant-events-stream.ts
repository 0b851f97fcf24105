/**
 * Where PlantCreated events go (README, "Consuming plant events"). Fixed names, so every
 * instance of the service and every consumer agree without configuration.
 */
export const PLANT_EVENTS_STREAM = 'PLANTSTORE_PLANTS';
export const PLANT_CREATED_SUBJECT = 'plantstore.plants.created';
/** JetStream drops a message whose id it saw within this window (its default too). */
export const DUPLICATE_WINDOW_MS = 2 * 60_000;
