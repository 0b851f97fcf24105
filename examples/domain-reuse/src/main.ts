/**
 * A second app on @plantstore/domain, installed from its tarball: it creates plants through
 * its own storage and issues and authenticates a token with nothing but Web Crypto.
 */
import {
  AuthenticateToken,
  CreatePlant,
  DomainError,
  IssueToken,
  Plant,
  PlantConflictError,
  PlantValidationError,
  systemClock,
  webCryptoTokenSecrets,
} from '@plantstore/domain';
import { InMemoryTokenRepository, plantRepositoryContract } from '@plantstore/domain/testing';
import { MapPlantRepository } from './map-plant-repository.js';

// The driving side parses once, with the domain's rules, and gets every violation at once.
function parsePlant(record: Record<string, unknown>): Plant {
  const numberLiteral = (value: unknown) =>
    typeof value === 'bigint' || typeof value === 'number' ? String(value) : undefined;
  const parsed = Plant.parseRecord({ fields: record, numberLiteral });
  if (!parsed.ok) throw new PlantValidationError(parsed.violations);
  return parsed.plant;
}

const createPlant = new CreatePlant(new MapPlantRepository(), systemClock);

async function create(record: Record<string, unknown>): Promise<void> {
  try {
    const requested = parsePlant(record);
    // A conflict is an outcome like a replay, not an exception; this app reports it as a refusal.
    const { outcome, plant } = await createPlant.execute({ plant: requested });
    if (outcome === 'conflict') refused(new PlantConflictError(requested.id));
    else console.log(`${outcome} ${JSON.stringify(plant)}`);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    refused(error);
  }
}

function refused(error: DomainError): void {
  console.log(`refused ${error.code}: ${error.message}`);
}

await create({ id: 9007199254740993n, name: 'Monstera', tag: 'Araceae' });
await create({ id: 9007199254740993n, name: 'Monstera', tag: 'Araceae' });
await create({ id: 9007199254740993n, name: 'Pothos' });
await create({ id: 2, name: '' });

const tokens = new InMemoryTokenRepository();
const secrets = webCryptoTokenSecrets(crypto);
const { plaintext, token } = await new IssueToken(tokens, secrets, systemClock).execute({
  name: 'reuse',
  scopes: ['plants:write'],
});
const authenticate = new AuthenticateToken(tokens, secrets, systemClock);
const result = await authenticate.execute(plaintext);
console.log(
  `issued a token of ${plaintext.length} characters; authenticated as itself: ${result.ok && result.principal.tokenId === token.id}`,
);
console.log(
  `may write plants: ${result.ok && result.principal.can('plants:write')}; may read: ${result.ok && result.principal.can('plants:read')}`,
);
const stranger = await authenticate.execute(secrets.generateToken());
console.log(`a token never issued: ${stranger.ok ? 'accepted' : stranger.reason}`);

// The same contract the domain's own fakes and the TypeORM adapter pass.
const checks = plantRepositoryContract({ empty: async () => new MapPlantRepository() });
let passed = 0;
for (const check of checks) {
  await check.run();
  passed++;
}
console.log(`MapPlantRepository passed ${passed} of ${checks.length} PlantRepository contract checks`);
