import {
  InMemoryPlantRepository,
  InMemoryTokenRepository,
  plantBatchRepositoryContract,
  plantChangeFeedContract,
  plantChangeRepositoryContract,
  plantReaderContract,
  plantRepositoryContract,
  tokenRepositoryContract,
} from '@plantstore/domain/testing';

// The fakes every domain test relies on are held to the same contract as the real adapters.
describe('InMemoryPlantRepository holds to the PlantRepository contract', () => {
  for (const check of plantRepositoryContract({ empty: async () => new InMemoryPlantRepository() }))
    it(check.name, check.run);
});

describe('InMemoryPlantRepository holds to the PlantBatchRepository contract', () => {
  for (const check of plantBatchRepositoryContract({ empty: async () => new InMemoryPlantRepository() }))
    it(check.name, check.run);
});

describe('InMemoryPlantRepository holds to the PlantReader contract', () => {
  for (const check of plantReaderContract({ empty: async () => new InMemoryPlantRepository() }))
    it(check.name, check.run);
});

describe('InMemoryPlantRepository holds to the PlantChangeRepository contract', () => {
  for (const check of plantChangeRepositoryContract({ empty: async () => new InMemoryPlantRepository() }))
    it(check.name, check.run);
});

describe('InMemoryPlantRepository holds to the PlantChangeFeed contract', () => {
  for (const check of plantChangeFeedContract({ empty: async () => new InMemoryPlantRepository() }))
    it(check.name, check.run);
});

describe('InMemoryTokenRepository holds to the TokenRepository contract', () => {
  for (const check of tokenRepositoryContract({ empty: async () => new InMemoryTokenRepository() }))
    it(check.name, check.run);
});
