import { createHash, webcrypto } from 'node:crypto';
import { AuthenticateToken, hasTokenShape, IssueToken, webCryptoTokenSecrets } from '@plantstore/domain';
import { FixedClock, InMemoryTokenRepository } from '@plantstore/domain/testing';

// Node's Web Crypto stands in for a browser's or an edge runtime's.
const secrets = webCryptoTokenSecrets(webcrypto);
const nodeSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('webCryptoTokenSecrets', () => {
  it('makes tokens of the shape pst_ + 43 base64url characters carrying 32 random bytes', () => {
    for (let i = 0; i < 200; i++) {
      const token = secrets.generateToken();
      expect(hasTokenShape(token)).toBe(true);
      expect(Buffer.from(token.slice(4), 'base64url')).toHaveLength(32);
      expect(Buffer.from(token.slice(4), 'base64url').toString('base64url')).toBe(token.slice(4));
    }
  });

  it('never repeats a token or an id over a thousand draws, and makes ids fit to print and type', () => {
    expect(new Set(Array.from({ length: 1000 }, () => secrets.generateToken())).size).toBe(1000);
    const ids = Array.from({ length: 1000 }, () => secrets.generateId());
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9-]{1,64}$/);
  });

  it.each([
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'], // FIPS 180-2 test vector
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ])('hashes %j with SHA-256 to lowercase hex', async (text, digest) => {
    await expect(secrets.hash(text)).resolves.toBe(digest);
  });

  it("digests the UTF-8 bytes exactly as Node's createHash does (so both can share a store)", async () => {
    for (const text of [secrets.generateToken(), 'é', '€', '🌵', 'a\uD800b', '\uDC00', 'mixed ü € 🌵 \u0000']) {
      await expect(secrets.hash(text)).resolves.toBe(nodeSha256(text));
    }
  });

  it('issues a token that authenticates, with nothing but Web Crypto', async () => {
    const tokens = new InMemoryTokenRepository();
    const clock = new FixedClock();
    const { plaintext, token } = await new IssueToken(tokens, secrets, clock).execute({ name: 'edge' });
    const result = await new AuthenticateToken(tokens, secrets, clock).execute(plaintext);
    expect(result.ok && result.principal.tokenId).toBe(token.id);
    expect(tokens.rawRows()[0]?.hash).toBe(nodeSha256(plaintext));
  });

  it('uses globalThis.crypto when given nothing, and says so when there is none', async () => {
    await expect(webCryptoTokenSecrets().hash('abc')).resolves.toBe(nodeSha256('abc'));
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
    try {
      expect(() => webCryptoTokenSecrets()).toThrow(/globalThis\.crypto is missing/);
    } finally {
      if (saved !== undefined) Object.defineProperty(globalThis, 'crypto', saved);
    }
  });
});
