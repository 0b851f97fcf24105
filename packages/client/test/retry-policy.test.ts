import { DEFAULT_RETRY, parseRetryAfter, retryDelayMs, type AttemptFailure } from '../src/retry-policy.js';

const options = { baseDelayMs: 100, maxDelayMs: 1_000 };
const network: AttemptFailure = { kind: 'network' };
const status = (code: number, retryAfterMs?: number): AttemptFailure => ({
  kind: 'status',
  status: code,
  retryAfterMs,
});
const justBelowOne = 1 - Number.EPSILON;

describe('which failures are retried', () => {
  it.each([
    ['a network failure', network],
    ['503 (database unavailable, server draining)', status(503)],
    ['429 (rate limited)', status(429)],
    ['408 (the request did not arrive in time)', status(408)],
  ])('%s is retried', (_, failure) => {
    expect(retryDelayMs(failure, 1, options, () => 0.5)).toBeDefined();
  });

  it.each([400, 401, 403, 404, 405, 409, 410, 412, 413, 415, 431, 500, 502])(
    '%i ends the call: repeating the request would not change it',
    (code) => {
      expect(retryDelayMs(status(code), 1, options, () => 0.5)).toBeUndefined();
    },
  );
});

describe('backoff: exponential, capped, full jitter', () => {
  it('the ceiling doubles with each failed attempt up to maxDelayMs', () => {
    const ceilings = [1, 2, 3, 4, 5].map((failed) => retryDelayMs(network, failed, options, () => justBelowOne)!);
    expect(ceilings.map(Math.round)).toEqual([100, 200, 400, 800, 1_000]);
  });

  it('the wait is drawn uniformly below the ceiling: random 0 waits 0, random 0.5 waits half', () => {
    expect(retryDelayMs(network, 3, options, () => 0)).toBe(0);
    expect(retryDelayMs(network, 3, options, () => 0.5)).toBe(200);
    expect(retryDelayMs(network, 3, options, () => justBelowOne)).toBeLessThan(400);
  });

  it('never exceeds the cap, however many attempts failed', () => {
    expect(retryDelayMs(network, 60, options, () => justBelowOne)).toBeLessThan(1_000);
    expect(retryDelayMs(network, 5_000, options, () => justBelowOne)).toBeLessThan(1_000);
  });

  it('a zero base waits nothing, however many attempts failed (never NaN)', () => {
    expect(retryDelayMs(network, 5_000, { baseDelayMs: 0, maxDelayMs: 1_000 }, () => 0.5)).toBe(0);
  });

  it('the defaults start at a fraction of a second and wait at most a few seconds', () => {
    expect(DEFAULT_RETRY).toEqual({ baseDelayMs: 200, maxDelayMs: 5_000 });
  });
});

describe('Retry-After', () => {
  it('is waited for when it is longer than the backoff', () => {
    expect(retryDelayMs(status(503, 7_000), 1, options, () => 0.5)).toBe(7_000);
    expect(retryDelayMs(status(429, 2_000), 1, options, () => 0.5)).toBe(2_000);
  });

  it('does not shorten the backoff', () => {
    expect(retryDelayMs(status(503, 0), 3, options, () => 0.5)).toBe(200);
  });

  it('however long, is waited for: the deadline decides whether the call can wait that long', () => {
    expect(retryDelayMs(status(503, 3_600_000), 1, options, () => 0.5)).toBe(3_600_000);
  });

  it('is parsed as delay-seconds', () => {
    expect(parseRetryAfter('5', 0)).toBe(5_000);
    expect(parseRetryAfter(' 0 ', 0)).toBe(0);
  });

  it('is parsed as an HTTP-date, relative to now, and never negative', () => {
    const now = Date.parse('Sun, 22 Nov 2026 12:00:00 GMT');
    expect(parseRetryAfter('Sun, 22 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('absent or unreadable means "not given"', () => {
    expect(parseRetryAfter(null, 0)).toBeUndefined();
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter('-5', 0)).toBeUndefined();
  });
});
