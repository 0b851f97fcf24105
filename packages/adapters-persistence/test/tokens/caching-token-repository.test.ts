import { CachingTokenRepository } from '@plantstore/adapters-persistence';
import { REVOCATION_BOUND_MS, type StoredApiToken } from '@plantstore/domain';
import { InMemoryTokenRepository } from '@plantstore/domain/testing';

class SteppingClock {
  constructor(private ms = Date.parse('2026-01-01T00:00:00Z')) {}
  now = () => new Date(this.ms);
  advance(ms: number) {
    this.ms += ms;
  }
}

const token: StoredApiToken = {
  id: 't1',
  name: 'cached',
  hash: 'h'.repeat(64),
  scopes: ['plants:write'],
  createdAt: new Date('2025-01-01T00:00:00Z'),
  expiresAt: undefined,
  revokedAt: undefined,
};

describe('CachingTokenRepository', () => {
  it('serves a found token from memory within the TTL, and asks the store again after it', async () => {
    const store = new InMemoryTokenRepository();
    await store.add(token);
    const clock = new SteppingClock();
    const cache = new CachingTokenRepository(store, clock, 4_000);
    await cache.findByHash(token.hash);
    clock.advance(3_999);
    await cache.findByHash(token.hash);
    expect(store.lookups).toBe(1);
    clock.advance(1);
    await cache.findByHash(token.hash);
    expect(store.lookups).toBe(2);
  });

  it('sees a revocation made elsewhere once the TTL has passed', async () => {
    const store = new InMemoryTokenRepository();
    await store.add(token);
    const clock = new SteppingClock();
    const cache = new CachingTokenRepository(store, clock, 4_000);
    expect((await cache.findByHash(token.hash))?.revokedAt).toBeUndefined();
    const revokedAt = clock.now();
    await store.revoke('t1', revokedAt); // another process, straight to the store
    expect((await cache.findByHash(token.hash))?.revokedAt).toBeUndefined();
    clock.advance(4_000);
    expect((await cache.findByHash(token.hash))?.revokedAt).toEqual(revokedAt);
  });

  it('forgets a token at once when revoked through itself', async () => {
    const store = new InMemoryTokenRepository();
    await store.add(token);
    const clock = new SteppingClock();
    const cache = new CachingTokenRepository(store, clock, 4_000);
    await cache.findByHash(token.hash);
    await cache.revoke('t1', clock.now());
    expect((await cache.findByHash(token.hash))?.revokedAt).toEqual(clock.now());
  });

  it('never caches an unknown hash, so a token created elsewhere works at once', async () => {
    const store = new InMemoryTokenRepository();
    const cache = new CachingTokenRepository(store, new SteppingClock(), 4_000);
    expect(await cache.findByHash(token.hash)).toBeUndefined();
    await store.add(token);
    expect(await cache.findByHash(token.hash)).toEqual(token);
  });

  it('stays within its size bound, dropping the oldest entry first', async () => {
    const store = new InMemoryTokenRepository();
    for (const id of ['a', 'b', 'c']) await store.add({ ...token, id, hash: id.repeat(64) });
    const cache = new CachingTokenRepository(store, new SteppingClock(), 4_000, 2);
    for (const id of ['a', 'b', 'c']) await cache.findByHash(id.repeat(64));
    store.lookups = 0;
    await cache.findByHash('c'.repeat(64));
    await cache.findByHash('b'.repeat(64));
    expect(store.lookups).toBe(0);
    await cache.findByHash('a'.repeat(64));
    expect(store.lookups).toBe(1);
  });

  it('refuses a TTL beyond the revocation bound', () => {
    expect(
      () => new CachingTokenRepository(new InMemoryTokenRepository(), new SteppingClock(), REVOCATION_BOUND_MS + 1),
    ).toThrow(RangeError);
  });
});
