import { InMemoryLimiterStorage } from '../../src/limits/in-memory-limiter-storage.js';

const MINUTE = 60_000;

describe('InMemoryLimiterStorage', () => {
  it('counts hits per key in a window and blocks past the limit', async () => {
    let now = 0;
    const storage = new InMemoryLimiterStorage(() => now);
    const records = [];
    for (let i = 0; i < 4; i++) records.push(await storage.hit('a', MINUTE, 3, MINUTE));
    expect(records.map((r) => r.blockedForSeconds)).toEqual([0, 0, 0, 60]);
    expect((await storage.hit('b', MINUTE, 3, MINUTE)).blockedForSeconds).toBe(0);
    now += MINUTE + 1;
    expect(await storage.hit('a', MINUTE, 3, MINUTE)).toEqual({ hits: 1, blockedForSeconds: 0 });
  });

  it('does not rescan every live window for each new key: 60,000 live addresses cost a handful of sweeps', async () => {
    let now = 0;
    const storage = new InMemoryLimiterStorage(() => now);
    for (let i = 0; i < 60_000; i++) {
      now += 1; // all within one minute: every window is still live
      await storage.hit(`addr-${i}`, MINUTE, 60, MINUTE);
    }
    expect(storage.size).toBe(60_000);
    // Sweeps at 10k, 20k and 40k, not one per key past 10k (which was 50,000 full scans).
    expect(storage.sweeps).toBeLessThanOrEqual(3);
  });

  it('still drops finished windows, so memory stays bounded by recent traffic', async () => {
    let now = 0;
    const storage = new InMemoryLimiterStorage(() => now);
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 15_000; i++) await storage.hit(`round-${round}-${i}`, MINUTE, 60, MINUTE);
      now += 2 * MINUTE;
    }
    expect(storage.size).toBeLessThanOrEqual(40_000);
  });
});
