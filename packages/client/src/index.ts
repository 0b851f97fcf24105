export { PlantStoreClient } from './plant-store-client.js';
export { DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_DEADLINE_MS, type PlantStoreClientOptions } from './client-options.js';
export type { CallOptions, ConditionalCallOptions } from './retrying-transport.js';
export type {
  ChangesPage,
  ChangesQuery,
  FollowedChanges,
  ListedPlant,
  ListedPlantPage,
  ListPlantsQuery,
  NewPlant,
  Plant,
  PlantChange,
  PlantFeedChange,
  PlantWithEtag,
} from './plant-types.js';
export { DEFAULT_SILENCE_TIMEOUT_MS, type FollowChangesOptions } from './change-follower.js';
export {
  PlantStoreApiError,
  PlantStoreDeadlineError,
  PlantStoreError,
  PlantStoreGoneError,
  PlantStoreInputError,
  PlantStoreNetworkError,
  PlantStorePreconditionFailedError,
  PlantStoreUnexpectedResponseError,
} from './errors.js';
export { DEFAULT_RETRY, type RetryOptions } from './retry-policy.js';
export type { PlantId } from './plant-id.js';
export type { components, paths } from './generated/openapi.js';
