import { Principal, tokenStateAt, type ApiToken, type Scope } from '@plantstore/domain';
import { principalForTests } from '@plantstore/domain/testing';

describe('Principal.can', () => {
  it('allows exactly the scopes the token was given', () => {
    const writer = principalForTests('tok-1', ['plants:write']);
    expect(writer.can('plants:write')).toBe(true);
    expect(writer.can('plants:read')).toBe(false);
  });

  it('allows nothing when the token has no scopes', () => {
    const nobody = principalForTests('tok-2', []);
    expect(nobody.can('plants:write')).toBe(false);
    expect(nobody.can('plants:read')).toBe(false);
  });

  it('allows each of several scopes', () => {
    const both = principalForTests('tok-3', ['plants:read', 'plants:write']);
    expect(both.can('plants:write') && both.can('plants:read')).toBe(true);
  });
});

describe('Principal: only the domain makes one', () => {
  it('cannot be constructed outside the package, even by plain JavaScript', () => {
    expect(() => {
      // @ts-expect-error the constructor is private: a Principal comes from AuthenticateToken
      new Principal('tok-1', ['plants:write']);
    }).toThrow(new TypeError('a Principal comes from AuthenticateToken'));
    const anyConstructor = Principal as unknown as new (...args: unknown[]) => Principal;
    expect(() => new anyConstructor(Symbol('Principal'), 'tok-1', ['plants:write'])).toThrow(TypeError);
  });

  it('cannot have its scopes or token id changed after it was made', () => {
    const reader = principalForTests('tok-1', ['plants:read']);
    expect(() => (reader.scopes as Scope[]).push('plants:write')).toThrow(TypeError);
    expect(() => Object.assign(reader, { tokenId: 'tok-2' })).toThrow(TypeError);
    expect([reader.tokenId, reader.can('plants:write')]).toEqual(['tok-1', false]);
  });

  it('keeps its own copy of the scopes it was made with', () => {
    const scopes: Scope[] = ['plants:read'];
    const reader = principalForTests('tok-1', scopes);
    scopes.push('plants:write');
    expect(reader.can('plants:write')).toBe(false);
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
