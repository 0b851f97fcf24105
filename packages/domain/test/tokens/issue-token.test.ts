import {
  AuthenticateToken,
  checkTokenRequest,
  InvalidTokenRequestError,
  IssueToken,
  TokenSecretsMisconfiguredError,
  hasTokenShape,
  type TokenSecrets,
} from '@plantstore/domain';
import { DeterministicTokenSecrets, FixedClock, InMemoryTokenRepository } from '@plantstore/domain/testing';
import { tokenFixture } from '../support/token-fixture.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('IssueToken', () => {
  it('gives a token without scopes both plants:write and plants:read, and an empty scope list the same', async () => {
    const { issue } = tokenFixture();
    expect((await issue.execute({ name: 'ci' })).token.scopes).toEqual(['plants:write', 'plants:read']);
    expect((await issue.execute({ name: 'ci', scopes: [] })).token.scopes).toEqual(['plants:write', 'plants:read']);
  });

  it('leaves the scopes of tokens issued before alone: a write-only token stays write-only', async () => {
    const { issue, tokens } = tokenFixture();
    const before = await issue.execute({ name: 'old', scopes: ['plants:write'] });
    await issue.execute({ name: 'new' });
    const stored = await tokens.list();
    expect(stored.find((token) => token.id === before.token.id)?.scopes).toEqual(['plants:write']);
  });

  it('gives exactly the scopes asked for, duplicates collapsed', async () => {
    const { issue } = tokenFixture();
    expect((await issue.execute({ name: 'monitor', scopes: ['plants:read'] })).token.scopes).toEqual(['plants:read']);
    const both = await issue.execute({ name: 'both', scopes: ['plants:write', 'plants:read', 'plants:write'] });
    expect(both.token.scopes).toEqual(['plants:write', 'plants:read']);
  });

  it('refuses an unknown scope, naming it, and stores nothing', async () => {
    const { issue, tokens } = tokenFixture();
    const attempt = issue.execute({ name: 'x', scopes: ['plants:write', 'plants:delete'] });
    await expect(attempt).rejects.toBeInstanceOf(InvalidTokenRequestError);
    await expect(issue.execute({ name: 'x', scopes: ['Plants:Write'] })).rejects.toThrow(/Plants:Write/);
    expect(tokens.rawRows()).toEqual([]);
  });

  it('refuses a lifetime that is not a positive whole number of milliseconds, and stores nothing', async () => {
    const { issue, tokens } = tokenFixture();
    for (const expiresInMs of [-1, 0, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(issue.execute({ name: 'x', expiresInMs })).rejects.toThrow(
        /lifetime must be a positive whole number/,
      );
    }
    await expect(issue.execute({ name: 'x', expiresInMs: 0 })).rejects.toBeInstanceOf(InvalidTokenRequestError);
    expect(tokens.rawRows()).toEqual([]);
  });

  it('counts the lifetime from the same instant as the creation, even when the clock moves meanwhile', async () => {
    const { tokens, secrets } = tokenFixture();
    // A clock that moves one millisecond at every reading: two readings would make the lifetime 1 ms short.
    const ticking = new FixedClock('2025-06-01T12:00:00.000Z');
    const readings = { now: () => ticking.advance(1) };
    const issue = new IssueToken(tokens, secrets, readings);
    for (const lifetime of [1, HOUR, 30 * DAY]) {
      const { token } = await issue.execute({ name: 'x', expiresInMs: lifetime });
      expect(token.expiresAt!.getTime() - token.createdAt.getTime()).toBe(lifetime);
    }
  });

  it('refuses a lifetime that would end after the year 9999', async () => {
    const { issue, clock } = tokenFixture();
    const untilEndOf9999 = Date.UTC(9999, 11, 31, 23, 59, 59) - clock.now().getTime();
    expect((await issue.execute({ name: 'x', expiresInMs: untilEndOf9999 })).token.expiresAt).toEqual(
      new Date(Date.UTC(9999, 11, 31, 23, 59, 59)),
    );
    await expect(issue.execute({ name: 'x', expiresInMs: untilEndOf9999 + 1 })).rejects.toThrow(/after the year 9999/);
  });

  it('refuses an invalid token name with the text rules (at most 100 code points)', async () => {
    const { issue } = tokenFixture();
    await expect(issue.execute({ name: '' })).rejects.toThrow(/^name /);
    await expect(issue.execute({ name: 'a\u0000b' })).rejects.toThrow(/control characters/);
    await expect(issue.execute({ name: '🌵'.repeat(101) })).rejects.toBeInstanceOf(InvalidTokenRequestError);
    await expect(issue.execute({ name: '🌵'.repeat(100) })).resolves.toBeDefined();
  });

  it('returns a plaintext of the shape pst_ + 43 base64url characters', async () => {
    const { issue } = tokenFixture();
    const { plaintext } = await issue.execute({ name: 'ci' });
    expect(plaintext).toMatch(/^pst_[A-Za-z0-9_-]{43}$/);
    expect(hasTokenShape(plaintext)).toBe(true);
  });

  it('stores only the hash of the plaintext, never the plaintext itself', async () => {
    const { issue, tokens, secrets } = tokenFixture();
    const { plaintext, token } = await issue.execute({ name: 'ci' });
    const [row, ...others] = tokens.rawRows();
    expect(others).toEqual([]);
    expect(row).toEqual({ ...token, hash: await secrets.hash(plaintext) });
    // Searched through every stored value, not just the fields known today.
    expect(JSON.stringify(tokens.rawRows())).not.toContain(plaintext.slice('pst_'.length));
  });

  it('stamps the token with the clock and an id from the secrets port', async () => {
    const { issue, clock } = tokenFixture();
    clock.advance(500);
    const first = await issue.execute({ name: 'first' });
    const second = await issue.execute({ name: 'second' });
    expect(first.token.createdAt).toEqual(clock.now());
    expect(first.token.revokedAt).toBeUndefined();
    expect(first.token.expiresAt).toBeUndefined();
    expect(first.token.id).not.toBe(second.token.id);
    expect(first.plaintext).not.toBe(second.plaintext);
  });

  it('issues a token that authenticates at once with its scopes', async () => {
    const { issue, authenticate } = tokenFixture();
    const { plaintext, token } = await issue.execute({ name: 'ci', scopes: ['plants:read'] });
    const result = await authenticate.execute(plaintext);
    expect(result.ok && result.principal.tokenId).toBe(token.id);
    expect(result.ok && result.principal.scopes).toEqual(['plants:read']);
  });

  describe('a token generator whose tokens could never authenticate', () => {
    const good = new DeterministicTokenSecrets();
    // Each is what a plausible mistake in a TokenSecrets implementation would produce.
    it.each([
      ['base64 instead of base64url', () => `pst_${'+/'.repeat(21)}A`],
      ['base64 with padding', () => `pst_${'A'.repeat(43)}=`],
      ['no prefix', () => 'A'.repeat(47)],
      ['16 bytes instead of 32', () => `pst_${'A'.repeat(22)}`],
    ])('is refused (%s) before anything is stored, without quoting the token', async (_label, generateToken) => {
      const tokens = new InMemoryTokenRepository();
      const broken: TokenSecrets = {
        generateToken,
        generateId: () => good.generateId(),
        hash: (token) => good.hash(token),
      };
      const issue = new IssueToken(tokens, broken, new FixedClock());
      const failure = await issue.execute({ name: 'ci' }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(TokenSecretsMisconfiguredError);
      expect(failure).toMatchObject({ code: 'TOKEN_SECRETS_MISCONFIGURED' });
      expect((failure as Error).message).not.toContain(generateToken());
      expect(tokens.rawRows()).toEqual([]);
      // What would have happened: AuthenticateToken calls such a token malformed.
      const authenticate = new AuthenticateToken(tokens, broken, new FixedClock());
      await expect(authenticate.execute(generateToken())).resolves.toEqual({ ok: false, reason: 'malformed' });
    });
  });
});

describe('checkTokenRequest', () => {
  const now = new Date('2025-06-01T12:00:00.000Z');

  it('gives the scopes and expiry IssueToken would store, with no store at all', () => {
    expect(checkTokenRequest({ name: 'ci' }, now)).toEqual({
      scopes: ['plants:write', 'plants:read'],
      expiresAt: undefined,
    });
    expect(checkTokenRequest({ name: 'ci', scopes: ['plants:read', 'plants:read'], expiresInMs: DAY }, now)).toEqual({
      scopes: ['plants:read'],
      expiresAt: new Date(now.getTime() + DAY),
    });
  });

  it('refuses what IssueToken refuses, with the same errors', () => {
    const untilEndOf9999 = Date.UTC(9999, 11, 31, 23, 59, 59) - now.getTime();
    expect(() => checkTokenRequest({ name: ' ' }, now)).toThrow(InvalidTokenRequestError);
    expect(() => checkTokenRequest({ name: 'x', scopes: ['admin'] }, now)).toThrow(/unknown scope admin/);
    expect(() => checkTokenRequest({ name: 'x', expiresInMs: 0 }, now)).toThrow(
      /lifetime must be a positive whole number/,
    );
    expect(checkTokenRequest({ name: 'x', expiresInMs: untilEndOf9999 }, now).expiresAt).toEqual(
      new Date(Date.UTC(9999, 11, 31, 23, 59, 59)),
    );
    expect(() => checkTokenRequest({ name: 'x', expiresInMs: untilEndOf9999 + 1 }, now)).toThrow(/after the year 9999/);
  });
});
