import { ChangeCursor, FEED_ORIGIN, MAX_CURSOR_LENGTH, type FeedPosition } from '@plantstore/domain';

const EXTREMES: FeedPosition[] = [
  FEED_ORIGIN,
  { epoch: 0n, commit: 1n, id: -9223372036854775808n },
  { epoch: 7n, commit: 18446744073709551615n, id: 9223372036854775807n },
  { epoch: 9223372036854775807n, commit: 9223372036854775807n, id: 9007199254740993n },
];

describe('change cursors', () => {
  it.each(EXTREMES)('round-trip %p exactly, in at most 100 URL-safe characters', (position) => {
    const text = ChangeCursor.encode(position);
    expect(text).toMatch(/^[0-9a-z.-]+$/);
    expect(text.length).toBeLessThanOrEqual(MAX_CURSOR_LENGTH);
    expect(encodeURIComponent(text)).toBe(text);
    expect(ChangeCursor.decode(text)).toEqual(position);
  });

  it('give neighbouring positions different texts', () => {
    const texts = [
      { epoch: 0n, commit: 1n, id: 2n },
      { epoch: 0n, commit: 2n, id: 1n },
      { epoch: 1n, commit: 0n, id: 2n },
      { epoch: 0n, commit: 1n, id: -2n },
    ].map((p) => ChangeCursor.encode(p));
    expect(new Set(texts).size).toBe(4);
  });

  it('start followers without a cursor at the origin', () => {
    expect(ChangeCursor.decode(ChangeCursor.origin)).toEqual(FEED_ORIGIN);
  });

  it('refuse every single-character change of a cursor, so an altered one is never read as another place', () => {
    const text = ChangeCursor.encode({ epoch: 1n, commit: 123456789n, id: -42n });
    const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz.-';
    let altered = 0;
    for (let i = 0; i < text.length; i++)
      for (const c of alphabet) {
        if (c === text[i]) continue;
        altered++;
        expect(ChangeCursor.decode(text.slice(0, i) + c + text.slice(i + 1))).toBeUndefined();
      }
    expect(altered).toBe(text.length * (alphabet.length - 1));
  });

  it.each([
    ['empty', ''],
    ['not ours', 'abc'],
    ['a dropped part', '1.0.0.0'],
    ['an extra part', `${ChangeCursor.origin}.0`],
    ['another format', ChangeCursor.origin.replace(/^1/, '2')],
    ['upper case', ChangeCursor.encode({ epoch: 0n, commit: 35n, id: 0n }).toUpperCase()],
    ['too long', `1.${'0'.repeat(MAX_CURSOR_LENGTH)}.0.0.0`],
  ])('refuse a text that is %s', (_label, text) => {
    expect(ChangeCursor.decode(text)).toBeUndefined();
  });

  it('refuse texts that denote a position in a form the codec never writes (leading zeros, -0)', () => {
    const written = ChangeCursor.encode({ epoch: 0n, commit: 5n, id: 0n });
    const [, epoch, commit, id, sum] = written.split('.');
    expect(ChangeCursor.decode(['1', epoch, `0${commit}`, id, sum].join('.'))).toBeUndefined();
    expect(ChangeCursor.decode(['1', epoch, commit, `-${id}`, sum].join('.'))).toBeUndefined();
  });

  it('refuse a negative epoch or commit even with a right checksum', () => {
    // encode writes whatever it is given; decode accepts only what a store could have handed out.
    expect(ChangeCursor.decode(ChangeCursor.encode({ epoch: -1n, commit: 0n, id: 0n }))).toBeUndefined();
    expect(ChangeCursor.decode(ChangeCursor.encode({ epoch: 0n, commit: -1n, id: 0n }))).toBeUndefined();
  });
});
