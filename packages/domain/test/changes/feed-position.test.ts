import { compareFeedPositions, FEED_ORIGIN, type FeedPosition } from '@plantstore/domain';

const at = (epoch: bigint, commit: bigint, id: bigint): FeedPosition => ({ epoch, commit, id });

describe('feed positions', () => {
  it('order by epoch first, then commit, then id, each by value', () => {
    const sorted = [
      at(0n, 0n, 0n),
      at(0n, 0n, 5n),
      at(0n, 1n, -9223372036854775808n),
      at(0n, 1n, 9007199254740992n),
      at(0n, 1n, 9007199254740993n),
      at(0n, 10n, -1n),
      at(1n, 0n, -5n),
      at(2n, 0n, -9223372036854775808n),
    ];
    const shuffled = [sorted[4]!, sorted[7]!, sorted[0]!, sorted[2]!, sorted[6]!, sorted[1]!, sorted[5]!, sorted[3]!];
    expect(shuffled.sort(compareFeedPositions)).toEqual(sorted);
  });

  it('compare equal only when all three parts are equal, and answer the opposite sign both ways round', () => {
    expect(compareFeedPositions(at(3n, 4n, 5n), at(3n, 4n, 5n))).toBe(0);
    expect(compareFeedPositions(at(1n, 9n, 9n), at(2n, 0n, 0n))).toBe(-1);
    expect(compareFeedPositions(at(2n, 0n, 0n), at(1n, 9n, 9n))).toBe(1);
    expect(compareFeedPositions(at(0n, 0n, 1n), FEED_ORIGIN)).toBe(1);
  });

  it('start from an origin a store cannot change', () => {
    expect(FEED_ORIGIN).toEqual(at(0n, 0n, 0n));
    expect(Object.isFrozen(FEED_ORIGIN)).toBe(true);
  });
});
