import { TypeOrmTokenRepository, nodeTokenSecrets } from '@plantstore/adapters-persistence';
import { AuthenticateToken, IssueToken, RevokeToken, type StoredApiToken } from '@plantstore/domain';
import { testEngines } from './engines.js';
import { fixedClock } from './support/fixed-clock.js';
import { clearStore } from './support/rows.js';
import { useFreshStore } from './support/use-store.js';

function storedToken(changes: Partial<StoredApiToken> = {}): StoredApiToken {
  return {
    id: 'tok-1',
    name: 'ci pipeline 🌵',
    hash: 'ab'.repeat(32),
    scopes: ['plants:write', 'plants:read'],
    createdAt: new Date('2025-06-01T12:00:00.123Z'),
    expiresAt: new Date('2025-07-01T00:00:00.456Z'),
    revokedAt: undefined,
    ...changes,
  };
}

describe.each(testEngines())('TypeOrmTokenRepository on $name', (engine) => {
  const open = useFreshStore(engine);
  let tokens: TypeOrmTokenRepository;

  beforeEach(async () => {
    await clearStore(open().dataSource);
    tokens = new TypeOrmTokenRepository(open().dataSource);
  });

  it('finds an added token by its hash with every field as it was, dates to the millisecond', async () => {
    const token = storedToken();
    await tokens.add(token);
    await expect(tokens.findByHash(token.hash)).resolves.toEqual(token);
  });

  it('keeps an absent expiry absent (undefined, not null)', async () => {
    await tokens.add(storedToken({ expiresAt: undefined }));
    const found = await tokens.findByHash(storedToken().hash);
    expect(found).toHaveProperty('expiresAt', undefined);
    expect(found).toHaveProperty('revokedAt', undefined);
  });

  it('finds nothing for an unknown hash', async () => {
    await tokens.add(storedToken());
    await expect(tokens.findByHash('cd'.repeat(32))).resolves.toBeUndefined();
  });

  it('refuses a second token with the same hash', async () => {
    await tokens.add(storedToken());
    await expect(tokens.add(storedToken({ id: 'tok-2' }))).rejects.toThrow();
  });

  it('lists tokens oldest first, never with a hash', async () => {
    const newer = storedToken({ id: 'tok-b', hash: '11'.repeat(32), createdAt: new Date('2025-06-02T00:00:00.000Z') });
    const older = storedToken({ id: 'tok-a', hash: '22'.repeat(32), createdAt: new Date('2025-06-01T00:00:00.000Z') });
    await tokens.add(newer);
    await tokens.add(older);
    const listed = await tokens.list();
    expect(listed.map((t) => t.id)).toEqual(['tok-a', 'tok-b']);
    const { hash: _older, ...olderWithoutHash } = older;
    expect(listed[0]).toEqual(olderWithoutHash);
    for (const token of listed) expect(token).not.toHaveProperty('hash');
    expect(JSON.stringify(listed)).not.toMatch(/(11){32}|(22){32}/);
  });

  it('revokes a known token at the given time, and keeps the first time when revoked again', async () => {
    await tokens.add(storedToken());
    const first = new Date('2025-06-03T08:00:00.001Z');
    await expect(tokens.revoke('tok-1', first)).resolves.toBe(true);
    await expect(tokens.revoke('tok-1', new Date('2025-06-04T08:00:00.000Z'))).resolves.toBe(true);
    expect((await tokens.findByHash(storedToken().hash))?.revokedAt).toEqual(first);
    expect((await tokens.list())[0]?.revokedAt).toEqual(first);
  });

  it('keeps the first time when two revocations race', async () => {
    await tokens.add(storedToken());
    const first = new Date('2025-06-03T08:00:00.000Z');
    await Promise.all([tokens.revoke('tok-1', first), tokens.revoke('tok-1', new Date('2025-06-04T08:00:00.000Z'))]);
    expect((await tokens.findByHash(storedToken().hash))?.revokedAt).toEqual(first);
  });

  it('says false when revoking an unknown id, and changes nothing', async () => {
    await tokens.add(storedToken());
    await expect(tokens.revoke('no-such-token', new Date())).resolves.toBe(false);
    expect((await tokens.list())[0]?.revokedAt).toBeUndefined();
  });

  it('issues, authenticates and revokes a real token through the store', async () => {
    const clock = fixedClock('2025-06-01T12:00:00.000Z');
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
    expect(rows.map((row) => row.token_hash)).toEqual([nodeTokenSecrets.hash(plaintext)]);
    expect(JSON.stringify(rows)).not.toContain(plaintext.slice(4));

    await new RevokeToken(tokens, clock).execute(token.id);
    await expect(authenticate.execute(plaintext)).resolves.toEqual({ ok: false, reason: 'revoked' });
  });
});
