/**
 * The public API of @plantstore/domain, chosen name by name (README.md, "Public API"): the
 * plant and token rules, the use cases, the ports an app implements, and the errors they
 * throw. Helpers the rules are built from stay inside; test doubles and the port contract
 * suites are in `@plantstore/domain/testing`.
 */

// Shared
export { systemClock, type Clock } from './common/clock.js';
export { DomainError, StorageUnavailableError, type StorageUnavailableReason } from './common/errors.js';
export type { FieldViolation } from './common/field-violation.js';

// Plants: rules
export {
  Plant,
  type NewPlantInput,
  type PlantJson,
  type PlantParseResult,
  type PlantReplacementInput,
} from './plants/plant.js';
export { PlantId } from './plants/plant-id.js';
export { PlantName } from './plants/plant-name.js';
export { plantNameKey } from './plants/plant-name-key.js';
export { PlantNameSearch } from './plants/plant-name-search.js';
export { PlantTag } from './plants/plant-tag.js';
export { NewPlantShape, type NewPlantRecord } from './plants/new-plant-shape.js';
export {
  PlantConflictError,
  PlantDeletedError,
  PlantIdRetiredError,
  PlantNotFoundError,
  PlantQueryError,
  PlantValidationError,
} from './plants/plant-errors.js';
export { PlantPageQuery, type PlantPageQueryInput, type PlantPageQueryParseResult } from './plants/plant-page-query.js';
// Plants: events
export { PlantCreated, type PlantCreatedJson } from './plants/plant-created.js';
export { PlantUpdated, type PlantUpdatedJson } from './plants/plant-updated.js';
export { PlantDeleted, type PlantDeletedJson } from './plants/plant-deleted.js';
export { plantEventFromJSON, type PlantEvent, type PlantEventJson } from './plants/plant-event.js';
// Plants: ports
export type {
  InsertOutcome,
  PlantBatchRepository,
  PlantProvenance,
  PlantRepository,
} from './plants/plant-repository.js';
export type { PlantPageRequest, PlantReader } from './plants/plant-reader.js';
export type {
  PlantChangeRepository,
  PlantRetirement,
  PlantRevision,
  PlantState,
} from './plants/plant-change-repository.js';
// Plants: the duplicate-id rule (for repositories that batch creates, and other drivers)
export { insertFirstOfEachId, settleCreate, type CreateOutcome, type SettledCreate } from './plants/duplicate-ids.js';
// Plants: use cases
export { CreatePlant, type CreatePlantCommand, type CreatePlantResult } from './plants/create-plant.js';
export {
  DEFAULT_IMPORT_BATCH_SIZE,
  ImportPlants,
  type ImportLine,
  type ImportListener,
  type ImportRejection,
  type ImportResult,
  type ImportTotals,
} from './plants/import-plants.js';
export { ExportPlants } from './plants/export-plants.js';
export { GetPlant, type GetPlantResult } from './plants/get-plant.js';
export { ListPlants, type PlantPage } from './plants/list-plants.js';
export {
  ChangePlant,
  MAX_CHANGE_ATTEMPTS,
  type ChangePlantCommand,
  type ChangePlantResult,
  type PlantPrecondition,
} from './plants/change-plant.js';
export { RemovePlant, type RemovePlantCommand, type RemovePlantResult } from './plants/remove-plant.js';

// Tokens: rules
export {
  hasTokenShape,
  tokenStateAt,
  TOKEN_PREFIX,
  type ApiToken,
  type StoredApiToken,
  type TokenState,
} from './tokens/api-token.js';
export { Principal } from './tokens/principal.js';
export { DEFAULT_SCOPES, isScope, SCOPES, type Scope } from './tokens/scope.js';
export { REVOCATION_BOUND_MS } from './tokens/revocation.js';
export { InvalidTokenRequestError, TokenNotFoundError, TokenSecretsMisconfiguredError } from './tokens/token-errors.js';
// Tokens: ports, and a Web Crypto implementation of TokenSecrets
export type { TokenRepository, TokenSecrets } from './tokens/token-ports.js';
export { webCryptoTokenSecrets, type WebCrypto } from './tokens/web-crypto-token-secrets.js';
// Tokens: use cases
export {
  AuthenticateToken,
  type AuthenticationFailure,
  type AuthenticationResult,
} from './tokens/authenticate-token.js';
export { checkTokenRequest, IssueToken, type IssuedToken, type IssueTokenCommand } from './tokens/issue-token.js';
export { ListTokens, RevokeToken, type RevokeTokenResult } from './tokens/manage-tokens.js';

// Changes: the feed a follower keeps its copy exact with (docs/changes.md)
export { compareFeedPositions, FEED_ORIGIN, type FeedPosition } from './changes/feed-position.js';
export { ChangeCursor, MAX_CURSOR_LENGTH } from './changes/change-cursor.js';
export { ChangesQuery, type ChangesQueryInput, type ChangesQueryParseResult } from './changes/changes-query.js';
export type { PlantChangeFeed, PlantFeedEntry, PositionedFeedEntry } from './changes/plant-change-feed.js';
export { FollowChanges, type FollowChangesResult } from './changes/follow-changes.js';
