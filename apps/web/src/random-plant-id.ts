import { PlantId } from '@plantstore/domain';

/** Fills an array with random values: crypto.getRandomValues in the browser. */
export type FillRandom = (array: BigUint64Array<ArrayBuffer>) => unknown;

/**
 * A random positive int64 for a new plant: the client chooses ids, and a random one among 2^63
 * is all but certainly free. Most are beyond 2^53, which the page shows and sends exactly.
 */
export function randomPlantId(fillRandom: FillRandom = (array) => crypto.getRandomValues(array)): bigint {
  const random = new BigUint64Array(1);
  for (;;) {
    fillRandom(random);
    const id = random[0]! & PlantId.MAX;
    if (id !== 0n) return id;
  }
}
