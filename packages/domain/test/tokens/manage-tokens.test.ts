import { tokenFixture } from '../support/token-fixture.js';

describe('RevokeToken', () => {
  it('answers not-found for an unknown id and changes nothing', async () => {
    const { issue, revoke, list } = tokenFixture();
    await issue.execute({ name: 'ci' });
    await expect(revoke.execute('no-such-token')).resolves.toEqual({ outcome: 'not-found' });
    expect((await list.execute()).map((t) => t.revokedAt)).toEqual([undefined]);
  });

  it('stamps the revocation with the clock', async () => {
    const { issue, revoke, list, clock } = tokenFixture();
    const { token } = await issue.execute({ name: 'ci' });
    const revokedAt = clock.advance(5_000);
    await expect(revoke.execute(token.id)).resolves.toEqual({ outcome: 'revoked' });
    expect((await list.execute()).map((t) => t.revokedAt)).toEqual([revokedAt]);
  });

  // The "first time wins" rule is the TokenRepository port's: tokenRepositoryContract (in
  // @plantstore/domain/testing) holds the fake and the real adapter to it alike.
  it('accepts revoking twice and keeps the first revocation time', async () => {
    const { issue, revoke, list, clock } = tokenFixture();
    const { token } = await issue.execute({ name: 'ci' });
    const firstTime = clock.advance(1_000);
    await revoke.execute(token.id);
    clock.advance(60_000);
    await expect(revoke.execute(token.id)).resolves.toEqual({ outcome: 'revoked' });
    expect((await list.execute())[0]?.revokedAt).toEqual(firstTime);
  });
});

describe('ListTokens', () => {
  it('lists issued tokens without their hash', async () => {
    const { issue, list } = tokenFixture();
    const a = await issue.execute({ name: 'a' });
    const b = await issue.execute({ name: 'b', scopes: ['plants:read'] });
    const listed = await list.execute();
    expect(listed).toEqual([a.token, b.token]);
    for (const token of listed) expect(token).not.toHaveProperty('hash');
  });
});
