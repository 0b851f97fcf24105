import { PlantId } from '@plantstore/domain';
import { randomPlantId } from '../src/random-plant-id.js';

/** A source of "random" values that hands out the given ones in turn. */
function values(...next: bigint[]): (array: BigUint64Array<ArrayBuffer>) => void {
  return (array) => {
    array[0] = next.shift() ?? 1n;
  };
}

describe('the random id offered for a new plant', () => {
  it('is a positive int64, all of whose 63 bits may be set', () => {
    expect(randomPlantId(values(2n ** 64n - 1n))).toBe(PlantId.MAX);
    expect(randomPlantId(values(2n ** 63n + 5n))).toBe(5n);
    expect(randomPlantId(values(9007199254740993n))).toBe(9007199254740993n);
  });

  it('draws again rather than offer 0', () => {
    expect(randomPlantId(values(0n, 2n ** 63n, 42n))).toBe(42n);
  });

  it("from the runtime's crypto: within 1 to 2^63 - 1, and mostly beyond 2^53", () => {
    const ids = Array.from({ length: 1_000 }, () => randomPlantId());
    expect(ids.every((id) => id >= 1n && id <= PlantId.MAX)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id > 2n ** 53n).length).toBeGreaterThan(900);
  });
});
