import { statSync } from 'node:fs';

/**
 * The READMEs stay what they are for: the repository's a product page that links to docs/,
 * the bench's a guide to running and reading it. Rules and figures live in docs/ and in
 * bench/results/, so growing past these sizes means something belongs there instead.
 */
const root = new URL('../../', import.meta.url);

describe('the shape of the READMEs', () => {
  it.each([
    ['README.md', 16 * 1024],
    ['bench/README.md', 12 * 1024],
  ])('%s is at most %d bytes', (file, limit) => {
    expect(statSync(new URL(file, root)).size).toBeLessThanOrEqual(limit);
  });
});
