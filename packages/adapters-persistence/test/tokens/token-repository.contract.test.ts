import { TypeOrmTokenRepository, nodeTokenSecrets } from '@plantstore/adapters-persistence';
import { AuthenticateToken, IssueToken, RevokeToken } from '@plantstore/domain';
import { FixedClock, tokenRepositoryContract } from '@plantstore/domain/testing';
import { testEngines } from '../engines.js';
import { clearStore } from '../support/rows.js';
import { useFreshStore } from '../support/use-store.js';

// The domain's TokenRepository contract (every field round-trips, unknown hash, duplicate id
// or hash refused, list order without hashes, first revocation time kept, also when racing).
describe.each(testEngines())('TypeOrmTokenRepository holds to the TokenRepository contract on $name', (engine) => {
  const open = useFreshStore(engine);
  const empty = async () => {
    await clearStore(open().dataSource);
    return new TypeOrmTokenRepository(open().dataSource);
  };
  for (const check of tokenRepositoryContract({ empty })) it(check.name, check.run);
});

describe.each(testEngines())('TypeOrmTokenRepository on $name', (engine) => {
  const open = useFreshStore(engine);
  let tokens: TypeOrmTokenRepository;

  beforeEach(async () => {
    await clearStore(open().dataSource);
    tokens = new TypeOrmTokenRepository(open().dataSource);
  });

  it('issues, authenticates and revokes a real token through the store', async () => {
    const clock = new FixedClock('2025-06-01T12:00:00.000Z');
    const issue = new IssueToken(tokens, nodeTokenSecrets, clock);
    const authenticate = new AuthenticateToken(tokens, nodeTokenSecrets, clock);
    const { plaintext, token } = await issue.execute({ name: 'ci', scopes: ['plants:read'] });

    const result = await authenticate.execute(plaintext);
    expect(result.ok && { id: result.principal.tokenId, scopes: result.principal.scopes }).toEqual({
      id: token.id,
      scopes: ['plants:read'],
    });
    // The table holds the digest, not the token.
    const rows: Array<{ token_hash: string }> = await open().dataSource.query('SELECT * FROM api_token');
    expect(rows.map((row) => row.token_hash)).toEqual([await nodeTokenSecrets.hash(plaintext)]);
    expect(JSON.stringify(rows)).not.toContain(plaintext.slice(4));

    await new RevokeToken(tokens, clock).execute(token.id);
    await expect(authenticate.execute(plaintext)).resolves.toEqual({ ok: false, reason: 'revoked' });
  });
});
