import { nodeTokenSecrets } from '@plantstore/adapters-persistence';
import { hasTokenShape, webCryptoTokenSecrets } from '@plantstore/domain';

describe('nodeTokenSecrets', () => {
  it('makes tokens of the shape pst_ + 43 base64url characters carrying 32 random bytes', () => {
    const token = nodeTokenSecrets.generateToken();
    expect(token).toMatch(/^pst_[A-Za-z0-9_-]{43}$/);
    expect(hasTokenShape(token)).toBe(true);
    expect(Buffer.from(token.slice(4), 'base64url')).toHaveLength(32);
  });

  it('never repeats a token or an id over a thousand draws', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => nodeTokenSecrets.generateToken()));
    const ids = new Set(Array.from({ length: 1000 }, () => nodeTokenSecrets.generateId()));
    expect(tokens.size).toBe(1000);
    expect(ids.size).toBe(1000);
  });

  it('makes ids that are safe to print and type, and fit the 64-character id column', () => {
    for (let i = 0; i < 20; i++) expect(nodeTokenSecrets.generateId()).toMatch(/^[A-Za-z0-9-]{1,64}$/);
  });

  it('hashes to 64 lowercase hex digits, the same for the same token and different for another', async () => {
    const token = nodeTokenSecrets.generateToken();
    const hash = await nodeTokenSecrets.hash(token);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    await expect(nodeTokenSecrets.hash(token)).resolves.toBe(hash);
    await expect(nodeTokenSecrets.hash(nodeTokenSecrets.generateToken())).resolves.not.toBe(hash);
    expect(hash).not.toContain(token.slice(4));
  });

  it('is SHA-256 (FIPS 180-2 test vector for "abc")', async () => {
    await expect(nodeTokenSecrets.hash('abc')).resolves.toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it("digests exactly as the domain's Web Crypto implementation does, so either can authenticate what the other issued", async () => {
    const web = webCryptoTokenSecrets();
    for (const text of [nodeTokenSecrets.generateToken(), 'é🌵', 'a\uD800b'])
      await expect(nodeTokenSecrets.hash(text)).resolves.toBe(await web.hash(text));
  });
});
