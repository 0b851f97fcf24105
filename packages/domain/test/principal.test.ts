import { Principal, tokenStateAt, type ApiToken } from '@plantstore/domain';

describe('Principal.can', () => {
  it('allows exactly the scopes the token was given', () => {
    const writer = new Principal('tok-1', ['plants:write']);
    expect(writer.can('plants:write')).toBe(true);
    expect(writer.can('plants:read')).toBe(false);
  });

  it('allows nothing when the token has no scopes', () => {
    const nobody = new Principal('tok-2', []);
    expect(nobody.can('plants:write')).toBe(false);
    expect(nobody.can('plants:read')).toBe(false);
  });

  it('allows each of several scopes', () => {
    const both = new Principal('tok-3', ['plants:read', 'plants:write']);
    expect(both.can('plants:write') && both.can('plants:read')).toBe(true);
  });
});

describe('tokenStateAt', () => {
  const now = new Date('2025-06-01T12:00:00.000Z');
  const token = (changes: Partial<ApiToken>): ApiToken => ({
    id: 't',
    name: 'n',
    scopes: ['plants:write'],
    createdAt: new Date('2025-01-01T00:00:00.000Z'),
    expiresAt: undefined,
    revokedAt: undefined,
    ...changes,
  });

  it.each([
    ['no expiry, not revoked', {}, 'active'],
    ['expiring one millisecond later', { expiresAt: new Date(now.getTime() + 1) }, 'active'],
    ['expiring exactly now', { expiresAt: now }, 'expired'],
    ['revoked exactly now', { revokedAt: now }, 'revoked'],
    ['revoked and expired', { revokedAt: new Date(0), expiresAt: new Date(0) }, 'revoked'],
  ] as const)('is %s → %s', (_label, changes, state) => {
    expect(tokenStateAt(token(changes), now)).toBe(state);
  });
});
