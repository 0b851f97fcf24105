import { principalForTests } from '@plantstore/domain/testing';
import { tokenFixture } from '../support/token-fixture.js';

const HOUR = 3_600_000;

describe('AuthenticateToken', () => {
  it('accepts a live token and returns its principal with the token id and scopes', async () => {
    const { issue, authenticate } = tokenFixture();
    const { plaintext, token } = await issue.execute({ name: 'ci', scopes: ['plants:write', 'plants:read'] });
    const result = await authenticate.execute(plaintext);
    expect(result).toEqual({ ok: true, principal: principalForTests(token.id, ['plants:write', 'plants:read']) });
  });

  it.each([
    ['empty', ''],
    ['without the prefix', 'q9-Xz_Lm3TbW0ceRk7uYhN2sVdJ5aGfP8oI1wAAAAAB'],
    ['too short', 'pst_abc'],
    ['one character too long', `pst_${'A'.repeat(44)}`],
    ['one character too short', `pst_${'A'.repeat(42)}`],
    ['with base64 padding', `pst_${'A'.repeat(42)}=`],
    ['with a non-base64url character', `pst_${'A'.repeat(42)}+`],
    ['with the scheme still attached', `Bearer pst_${'A'.repeat(43)}`],
    ['with a trailing newline', `pst_${'A'.repeat(43)}\n`],
  ])('calls a token %s malformed, without looking it up', async (_label, presented) => {
    const { authenticate, tokens } = tokenFixture();
    await expect(authenticate.execute(presented)).resolves.toEqual({ ok: false, reason: 'malformed' });
    expect(tokens.lookups).toBe(0);
  });

  it('calls a well-formed token that was never issued unknown', async () => {
    const { issue, authenticate } = tokenFixture();
    const { plaintext } = await issue.execute({ name: 'ci' });
    const other = plaintext.slice(0, -1) + (plaintext.endsWith('A') ? 'B' : 'A');
    await expect(authenticate.execute(other)).resolves.toEqual({ ok: false, reason: 'unknown' });
  });

  describe('expiry', () => {
    it('accepts a token one millisecond before it expires', async () => {
      const { issue, authenticate, clock } = tokenFixture();
      const { plaintext } = await issue.execute({ name: 'ci', expiresInMs: HOUR });
      clock.advance(HOUR - 1);
      expect((await authenticate.execute(plaintext)).ok).toBe(true);
    });

    it('calls a token expired at the exact moment of its expiry', async () => {
      const { issue, authenticate, clock } = tokenFixture();
      const { plaintext } = await issue.execute({ name: 'ci', expiresInMs: HOUR });
      clock.advance(HOUR);
      await expect(authenticate.execute(plaintext)).resolves.toEqual({ ok: false, reason: 'expired' });
    });

    it('calls a token expired long after its expiry', async () => {
      const { issue, authenticate, clock } = tokenFixture();
      const { plaintext } = await issue.execute({ name: 'ci', expiresInMs: HOUR });
      clock.advance(365 * 24 * HOUR);
      await expect(authenticate.execute(plaintext)).resolves.toEqual({ ok: false, reason: 'expired' });
    });
  });

  describe('revocation', () => {
    it('refuses a revoked token from the moment it is revoked', async () => {
      const { issue, authenticate, revoke } = tokenFixture();
      const { plaintext, token } = await issue.execute({ name: 'ci' });
      await revoke.execute(token.id);
      await expect(authenticate.execute(plaintext)).resolves.toEqual({ ok: false, reason: 'revoked' });
    });

    it('says revoked, not expired, for a token that is both', async () => {
      const { issue, authenticate, revoke, clock } = tokenFixture();
      const { plaintext, token } = await issue.execute({ name: 'ci', expiresInMs: HOUR });
      await revoke.execute(token.id);
      clock.advance(2 * HOUR);
      await expect(authenticate.execute(plaintext)).resolves.toEqual({ ok: false, reason: 'revoked' });
    });

    it('leaves the other tokens working', async () => {
      const { issue, authenticate, revoke } = tokenFixture();
      const revoked = await issue.execute({ name: 'old' });
      const kept = await issue.execute({ name: 'new' });
      await revoke.execute(revoked.token.id);
      expect((await authenticate.execute(kept.plaintext)).ok).toBe(true);
    });
  });
});
