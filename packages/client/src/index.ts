export {
  PlantStoreClient,
  type CallOptions,
  type ListedPlant,
  type ListPlantsQuery,
  type NewPlant,
  type Plant,
  type PlantStoreClientOptions,
} from './plant-store-client.js';
export {
  PlantStoreApiError,
  PlantStoreDeadlineError,
  PlantStoreError,
  PlantStoreNetworkError,
  PlantStoreUnexpectedResponseError,
} from './errors.js';
export { DEFAULT_RETRY, type RetryOptions } from './retry-policy.js';
export type { PlantId } from './plant-id.js';
export type { components, paths } from './generated/openapi.js';
