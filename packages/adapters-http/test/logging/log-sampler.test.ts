import { LogSampler } from '../../src/logging/log-sampler.js';

describe('LogSampler: which of a flood of refusals get a log line', () => {
  it('writes a burst, then one line per interval, each saying how many went unwritten', () => {
    let now = 0;
    const sampler = new LogSampler(1_000, 3, () => now);
    const written: number[] = [];
    let occurrences = 0;
    // 20,000 occurrences over 20 s, one a millisecond.
    for (; now < 20_000; now++, occurrences++) {
      const unwritten = sampler.take();
      if (unwritten !== undefined) written.push(unwritten);
    }
    expect(written.slice(0, 3)).toEqual([0, 0, 0]);
    expect(written.length).toBe(3 + 19);
    // Every occurrence is a line or counted in the next line's `unwritten`, but for the ones since the last line.
    const accounted = written.length + written.reduce((sum, n) => sum + n, 0);
    expect(accounted).toBeLessThanOrEqual(occurrences);
    expect(occurrences - accounted).toBeLessThan(1_000);
  });

  it('writes every occurrence that comes less often than once an interval', () => {
    let now = 0;
    const sampler = new LogSampler(1_000, 3, () => now);
    const written = Array.from({ length: 50 }, () => {
      now += 1_100;
      return sampler.take();
    });
    expect(written.every((unwritten) => unwritten === 0)).toBe(true);
  });
});
