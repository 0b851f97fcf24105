/**
 * `@plantstore/domain/testing`: what a team reusing the domain needs to test its own code
 * and its own port implementations. In-memory ports, a clock that moves only when told, token
 * secrets that are reproducible, and contract suites that any test runner can run.
 * Never wire these into production: the token secrets are guessable by design.
 */
export { FixedClock } from './fixed-clock.js';
export { InMemoryPlantRepository, type StoredPlant } from './in-memory-plant-repository.js';
export { InMemoryTokenRepository } from './in-memory-token-repository.js';
export { DeterministicTokenSecrets } from './deterministic-token-secrets.js';
export { principalForTests } from './principals.js';
export { ContractViolation, type ContractCheck } from './contracts/check.js';
export {
  plantBatchRepositoryContract,
  plantRepositoryContract,
  type PlantBatchRepositorySubject,
  type PlantRepositorySubject,
} from './contracts/plant-repository.contract.js';
export { plantReaderContract, type PlantReaderSubject } from './contracts/plant-reader.contract.js';
export {
  plantChangeRepositoryContract,
  type ChangingPlantStore,
  type PlantChangeRepositorySubject,
} from './contracts/plant-change-repository.contract.js';
export {
  plantChangeFeedContract,
  type FeedingPlantStore,
  type PlantChangeFeedSubject,
} from './contracts/plant-change-feed.contract.js';
export { tokenRepositoryContract, type TokenRepositorySubject } from './contracts/token-repository.contract.js';
/**
 * The text rule's building blocks, for property-based tests that check the rule against an
 * independent oracle. Not part of the main entry point: PlantName, PlantTag and IssueToken
 * apply the rule.
 */
export { countCodePoints, textViolations } from '../common/text-rules.js';
