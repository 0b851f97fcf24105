import { parseDuration } from '../src/parse-duration.js';

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['15m', 15 * 60_000],
    ['12h', 12 * 3_600_000],
    ['30d', 30 * 86_400_000],
    ['1s', 1_000],
  ])('reads %s', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    '',
    '30',
    'd',
    '0d',
    '-5d',
    '+5d',
    '1.5h',
    '1e3s',
    ' 5m',
    '5m ',
    '5M',
    '1w',
    '1h30m',
    '5 m',
    '99999999999999999d',
  ])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
