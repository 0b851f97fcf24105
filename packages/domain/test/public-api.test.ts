import * as domain from '@plantstore/domain';
import * as testing from '@plantstore/domain/testing';

// The public API is chosen name by name (README.md, "Public API"): adding or removing a
// runtime export is a decision, made here and in the README and CHANGELOG together.
describe('the public API', () => {
  it('exports exactly the chosen values from the main entry point', () => {
    expect(Object.keys(domain).sort()).toEqual([
      'AuthenticateToken',
      'ChangeCursor',
      'ChangePlant',
      'ChangesQuery',
      'CreatePlant',
      'DEFAULT_IMPORT_BATCH_SIZE',
      'DEFAULT_SCOPES',
      'DomainError',
      'ExportPlants',
      'FEED_ORIGIN',
      'FollowChanges',
      'GetPlant',
      'ImportPlants',
      'InvalidTokenRequestError',
      'IssueToken',
      'ListPlants',
      'ListTokens',
      'MAX_CHANGE_ATTEMPTS',
      'MAX_CURSOR_LENGTH',
      'NewPlantShape',
      'Plant',
      'PlantConflictError',
      'PlantCreated',
      'PlantDeleted',
      'PlantDeletedError',
      'PlantId',
      'PlantIdRetiredError',
      'PlantName',
      'PlantNameSearch',
      'PlantNotFoundError',
      'PlantPageQuery',
      'PlantQueryError',
      'PlantTag',
      'PlantUpdated',
      'PlantValidationError',
      'Principal',
      'REVOCATION_BOUND_MS',
      'RemovePlant',
      'RevokeToken',
      'SCOPES',
      'StorageUnavailableError',
      'TOKEN_PREFIX',
      'TokenNotFoundError',
      'TokenSecretsMisconfiguredError',
      'checkTokenRequest',
      'compareFeedPositions',
      'hasTokenShape',
      'insertFirstOfEachId',
      'isScope',
      'plantEventFromJSON',
      'plantNameKey',
      'settleCreate',
      'systemClock',
      'tokenStateAt',
      'webCryptoTokenSecrets',
    ]);
  });

  it('keeps the helpers the rules are built from, and the way to mint a Principal, out of it', () => {
    for (const name of [
      'countCodePoints',
      'textViolations',
      'PLANT_ID_RANGE_MESSAGE',
      'DEFAULT_EXPORT_PAGE_SIZE',
      'describeViolations',
      'mintPrincipal',
      'CachingTokenRepository',
    ]) {
      expect(domain).not.toHaveProperty(name);
    }
  });

  it('exports test doubles and contract suites from /testing', () => {
    expect(Object.keys(testing).sort()).toEqual([
      'ContractViolation',
      'DeterministicTokenSecrets',
      'FixedClock',
      'InMemoryPlantRepository',
      'InMemoryTokenRepository',
      'countCodePoints',
      'plantBatchRepositoryContract',
      'plantChangeFeedContract',
      'plantChangeRepositoryContract',
      'plantReaderContract',
      'plantRepositoryContract',
      'principalForTests',
      'textViolations',
      'tokenRepositoryContract',
    ]);
  });
});
