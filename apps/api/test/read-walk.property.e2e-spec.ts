import fc from 'fast-check';
import { postPlant } from './support/plant-requests.js';
import { walk } from './support/read-requests.js';
import { testEngines } from './support/engines.js';
import { useTestApp } from './support/test-app.js';

/**
 * The promise of GET /plants: following `next` until it is absent returns every plant that
 * existed when the walk began exactly once, ascending by id value, whatever creates run
 * meanwhile. Random ids over the whole int64 range (edges, negatives, beyond 2^53), random page
 * sizes and tag filters, and writers creating plants before and after the cursor while the
 * walk runs.
 */
const RUNS = 12;
const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;
const TAGS = ['a', 'b', undefined] as const;

const int64 = fc.oneof(
  fc.constantFrom(MIN, MIN + 1n, -1n, 0n, 1n, 2n ** 53n, 2n ** 53n + 1n, MAX - 1n, MAX),
  fc.bigInt(MIN, MAX),
  fc.bigInt(-50n, 50n),
);

/** One id, one content: an id written again by a later run is a replay, never a conflict. */
function tagOf(id: bigint): string | undefined {
  return TAGS[Number((id < 0n ? -id : id) % 3n)];
}

function body(id: bigint): string {
  const tag = tagOf(id);
  return `{"id":${id},"name":"plant ${id}"${tag === undefined ? '' : `,"tag":"${tag}"`}}`;
}

describe.each(testEngines())('a walk by next while creates run ($name)', (engine) => {
  const t = useTestApp({}, engine);

  async function create(id: bigint): Promise<void> {
    const res = await postPlant(t.url, t.token, body(id));
    if (res.status !== 200) throw new Error(`creating ${id}: ${res.status} ${res.text}`);
  }

  it('returns every plant that existed when it began exactly once, ascending, and nothing that does not match', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(int64, { maxLength: 40 }),
        fc.array(int64, { maxLength: 30 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom<readonly string[]>([], ['a'], ['a', 'b']),
        async (before, during, limit, tags) => {
          for (const id of before) await create(id);
          const matches = (id: bigint) => tags.length === 0 || tags.includes(tagOf(id) as string);
          const existing = new Set(
            (await t.plants())
              .map((row) => BigInt(row.id))
              .filter(matches)
              .map(String),
          );

          // Two writers create plants while the walk runs, interleaved with its pages.
          const half = Math.ceil(during.length / 2);
          const writers = [during.slice(0, half), during.slice(half)].map(async (ids) => {
            for (const id of ids) await create(id);
          });
          const query = [...tags.map((tag) => `tags=${tag}`), `limit=${limit}`].join('&');
          const [{ ids, pages }] = await Promise.all([walk(t.url, t.token, `/plants?${query}`), ...writers]);

          const values = ids.map(BigInt);
          expect(values.every((id, i) => i === 0 || values[i - 1]! < id)).toBe(true);
          expect(new Set(ids).size).toBe(ids.length);
          const seen = new Set(ids);
          expect([...existing].filter((id) => !seen.has(id))).toEqual([]);
          const created = new Set(during.map(String));
          expect(ids.filter((id) => !existing.has(id) && !created.has(id))).toEqual([]);
          expect(values.filter((id) => !matches(id))).toEqual([]);
          // Full pages carry next, the last page is shorter (possibly empty after a full one).
          expect(pages.slice(0, -1).every((size) => size === limit)).toBe(true);
          expect(pages[pages.length - 1]!).toBeLessThan(limit);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
