import { PlantId } from '../../plants/plant-id.js';
import { PlantTag } from '../../plants/plant-tag.js';
import type { PlantReader } from '../../plants/plant-reader.js';
import type { PlantProvenance, PlantRepository } from '../../plants/plant-repository.js';
import type { Plant } from '../../plants/plant.js';
import { ensure, ensureEqual, plant, type ContractCheck } from './check.js';

const provenance: PlantProvenance = { createdByTokenId: undefined, createdAt: new Date('2025-06-01T12:00:00.000Z') };
const TWO_TO_53 = 9007199254740992n;
/** In this order, a store sorting ids as text or as floats gets the pages wrong. */
const EDGE_IDS = [PlantId.MAX, TWO_TO_53 + 1n, TWO_TO_53, 10n, 9n, 0n, -1n, -10n, PlantId.MIN];

export interface PlantReaderSubject {
  /**
   * A store holding no plant, seen through both ports: the checks insert with
   * `insertIfAbsent` and read back with the reader. Called once at the start of every check.
   */
  empty(): Promise<PlantReader & PlantRepository>;
}

function tags(...values: string[]): PlantTag[] {
  return values.map((value) => {
    const tag = PlantTag.create(value);
    if (!(tag instanceof PlantTag)) throw new Error(`contract suite bug: tag ${value}`);
    return tag;
  });
}

async function seed(store: PlantRepository, plants: readonly Plant[]): Promise<void> {
  for (const p of plants) await store.insertIfAbsent(p, provenance);
}

function idsOf(plants: readonly Plant[]): string[] {
  return plants.map((p) => p.id.toString());
}

/** The checks every PlantReader must pass (see the port's comments). */
export function plantReaderContract(subject: PlantReaderSubject): ContractCheck[] {
  return [
    {
      name: 'finds a plant by id exactly as stored, and answers undefined for an id never stored',
      run: async () => {
        const store = await subject.empty();
        await seed(store, [plant({ id: '1', name: 'Monstera', tag: 'Araceae' }), plant({ id: '2', name: 'Aloe' })]);
        ensureEqual(
          (await store.findById(PlantId.fromStored('1')))?.toJSON(),
          { id: '1', name: 'Monstera', tag: 'Araceae' },
          'plant 1',
        );
        const aloe = await store.findById(PlantId.fromStored('2'));
        ensureEqual(aloe?.toJSON(), { id: '2', name: 'Aloe' }, 'plant 2');
        ensure(aloe?.tag === undefined, 'plant 2 was stored without a tag and must come back without one');
        ensureEqual(await store.findById(PlantId.fromStored('3')), undefined, 'plant 3, never stored');
      },
    },
    {
      name: 'finds ids at the int64 edges, negative ids and ids beyond 2^53 by value, exactly',
      run: async () => {
        const store = await subject.empty();
        await seed(
          store,
          EDGE_IDS.map((id) => plant({ id, name: `n${id}` })),
        );
        for (const id of EDGE_IDS) {
          // A fresh PlantId object, parsed from text: the store must compare values.
          const found = await store.findById(PlantId.fromStored(String(id)));
          ensureEqual(found?.toJSON(), { id: String(id), name: `n${id}` }, `plant ${id}`);
        }
        ensureEqual(
          await store.findById(PlantId.fromStored(TWO_TO_53 - 1n)),
          undefined,
          'plant 2^53 - 1, never stored',
        );
      },
    },
    {
      name: 'lists pages ascending by id value over the whole int64 range, starting after the id given',
      run: async () => {
        const store = await subject.empty();
        await seed(
          store,
          EDGE_IDS.map((id) => plant({ id, name: `n${id}` })),
        );
        const ascending = [...EDGE_IDS].sort((a, b) => (a < b ? -1 : 1)).map(String);
        const first = await store.listPage({ after: undefined, tags: [], limit: 4 });
        ensureEqual(idsOf(first), ascending.slice(0, 4), 'first page of 4');
        const second = await store.listPage({ after: PlantId.fromStored(first[3]!.id.toString()), tags: [], limit: 4 });
        ensureEqual(
          second.map((p) => p.toJSON()),
          ascending.slice(4, 8).map((id) => ({ id, name: `n${id}` })),
          'second page of 4',
        );
        const third = await store.listPage({ after: second[3]!.id, tags: [], limit: 4 });
        ensureEqual(idsOf(third), ascending.slice(8), 'third page, shorter');
        ensureEqual(
          idsOf(await store.listPage({ after: PlantId.fromStored(PlantId.MAX), tags: [], limit: 4 })),
          [],
          'page after the maximum id',
        );
        ensureEqual(
          idsOf(await store.listPage({ after: PlantId.fromStored(PlantId.MIN), tags: [], limit: 1000 })),
          ascending.slice(1),
          'page after the minimum id',
        );
      },
    },
    {
      name: 'keeps only plants whose tag equals one of the tags asked for, exactly (no case folding, no trimming)',
      run: async () => {
        const store = await subject.empty();
        await seed(store, [
          plant({ id: '1', name: 'a', tag: 'herb' }),
          plant({ id: '2', name: 'b' }),
          plant({ id: '3', name: 'c', tag: 'Herb' }),
          plant({ id: '4', name: 'd', tag: 'herb ' }),
          plant({ id: '5', name: 'e', tag: 'tree' }),
          plant({ id: '6', name: 'f', tag: 'herb' }),
          plant({ id: '7', name: 'g', tag: `'); --` }),
        ]);
        const page = (t: PlantTag[], limit = 10, after?: bigint) =>
          store.listPage({ after: after === undefined ? undefined : PlantId.fromStored(after), tags: t, limit });
        ensureEqual(idsOf(await page(tags('herb'))), ['1', '6'], 'plants tagged herb');
        ensureEqual(idsOf(await page(tags('herb', 'tree'))), ['1', '5', '6'], 'plants tagged herb or tree');
        ensureEqual(idsOf(await page(tags('herb'), 1)), ['1'], 'first plant tagged herb');
        ensureEqual(idsOf(await page(tags('herb'), 1, 1n)), ['6'], 'next plant tagged herb after id 1');
        ensureEqual(idsOf(await page(tags(`'); --`))), ['7'], 'plants tagged with SQL metacharacters');
        ensureEqual(idsOf(await page(tags('shrub'))), [], 'plants tagged shrub (none)');
        ensureEqual(idsOf(await page([])), ['1', '2', '3', '4', '5', '6', '7'], 'every plant when no tag is asked for');
      },
    },
    {
      name: 'answers pages that a walk by the last id completes exactly once each, while inserts run',
      run: async () => {
        const store = await subject.empty();
        const before = Array.from({ length: 40 }, (_, i) => plant({ id: BigInt(i * 10), name: `before ${i}` }));
        await seed(store, before);
        const seen: string[] = [];
        let after: PlantId | undefined;
        let writer = 0;
        for (;;) {
          const page = await store.listPage({ after, tags: [], limit: 7 });
          seen.push(...idsOf(page));
          // Inserts between pages: behind the cursor, ahead of it, and at the far ends.
          for (const id of [
            BigInt(writer * 10 + 5),
            BigInt(400 - writer),
            -1n - BigInt(writer),
            PlantId.MAX - BigInt(writer),
          ])
            await store.insertIfAbsent(plant({ id, name: `during ${writer}` }), provenance);
          writer++;
          if (page.length < 7) break;
          after = page[page.length - 1]!.id;
        }
        const unique = new Set(seen);
        ensureEqual(unique.size, seen.length, 'plants seen more than once in the walk');
        for (const p of before)
          ensure(unique.has(p.id.toString()), `the walk missed plant ${p.id.toString()}, stored before it began`);
        const values = seen.map((id) => BigInt(id));
        ensure(
          values.every((v, i) => i === 0 || values[i - 1]! < v),
          `the walk is not ascending: ${seen.join(', ')}`,
        );
      },
    },
  ];
}
