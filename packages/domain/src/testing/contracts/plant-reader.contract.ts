import { PlantId } from '../../plants/plant-id.js';
import { PlantNameSearch } from '../../plants/plant-name-search.js';
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

function search(text: string): PlantNameSearch {
  const found = PlantNameSearch.create(text);
  if (!(found instanceof PlantNameSearch)) throw new Error(`contract suite bug: name ${text}`);
  return found;
}

/** Names a search must tell apart: accents, case, ß, texts that are wildcards or quotes in SQL, LIKE and FTS5. */
const NAMED = [
  plant({ id: '1', name: 'Fougère aigle', tag: 'fern' }),
  plant({ id: '2', name: 'MONSTERA deliciosa', tag: 'aroid' }),
  plant({ id: '3', name: 'Straße', tag: 'street' }),
  plant({ id: '4', name: 'STRASSE' }),
  plant({ id: '5', name: 'Rosa canina', tag: 'rose' }),
  plant({ id: '6', name: '100% cotton_grass' }),
  plant({ id: '7', name: `O'Brien's "fern" * OR rose` }),
  plant({ id: '8', name: 'Ａｌｏｅ ＶＥＲＡ' }),
  plant({ id: '9', name: 'Σίσυφος' }),
  plant({ id: '10', name: 'fougere', tag: 'fern' }),
  plant({ id: '11', name: 'Monstera adansonii', tag: 'aroid' }),
];

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
      name: 'finds plants whose name contains a text, ignoring case and accents, whatever its length',
      run: async () => {
        const store = await subject.empty();
        await seed(store, NAMED);
        const found = async (text: string) =>
          idsOf(await store.listPage({ after: undefined, tags: [], name: search(text), limit: 100 }));
        ensureEqual(await found('fougere'), ['1', '10'], 'fougere');
        ensureEqual(await found('FOUGÈRE AIG'), ['1'], 'FOUGÈRE AIG');
        ensureEqual(await found('monstera'), ['2', '11'], 'monstera');
        ensureEqual(await found('ß'), ['3', '4', '6'], 'ß');
        ensureEqual(await found('STRASSE'), ['3', '4'], 'STRASSE');
        ensureEqual(await found('aloe vera'), ['8'], 'aloe vera in a name of full-width letters');
        ensureEqual(await found('ΣΙΣΥΦΟΣ'), ['9'], 'ΣΙΣΥΦΟΣ (final sigma, accents)');
        ensureEqual(await found('%'), ['6'], '% (a LIKE wildcard)');
        ensureEqual(await found('_'), ['6'], '_ (a LIKE wildcard)');
        ensureEqual(await found('0% c'), ['6'], '0% c');
        ensureEqual(await found('"fern" * or'), ['7'], '"fern" * or (FTS5 syntax)');
        ensureEqual(await found(`o'brien`), ['7'], `o'brien`);
        ensureEqual(await found('ro'), ['5', '7'], 'ro (two characters)');
        ensureEqual(await found('e'), ['1', '2', '3', '4', '7', '8', '10', '11'], 'e (one character)');
        ensureEqual(await found('rosa canina!'), [], 'rosa canina! (longer than any match)');
        ensureEqual(await found('xyz'), [], 'xyz (nowhere)');
      },
    },
    {
      name: 'combines a name with tags, and pages the matches by the last id',
      run: async () => {
        const store = await subject.empty();
        await seed(store, NAMED);
        const page = (text: string, t: PlantTag[], limit: number, after?: bigint) =>
          store.listPage({
            after: after === undefined ? undefined : PlantId.fromStored(after),
            tags: t,
            name: search(text),
            limit,
          });
        ensureEqual(idsOf(await page('fou', tags('fern'), 10)), ['1', '10'], 'fou tagged fern');
        ensureEqual(
          idsOf(await page('fern', tags('fern'), 10)),
          [],
          'fern tagged fern (no name holds it but 7, untagged)',
        );
        ensureEqual(idsOf(await page('o', tags('aroid', 'rose'), 10)), ['2', '5', '11'], 'o tagged aroid or rose');
        ensureEqual(idsOf(await page('monstera', [], 1)), ['2'], 'first page of monstera');
        ensureEqual(idsOf(await page('monstera', [], 1, 2n)), ['11'], 'second page of monstera');
        ensureEqual(idsOf(await page('monstera', [], 1, 11n)), [], 'third page of monstera');
        ensureEqual(idsOf(await page('a', [], 3, 3n)), ['4', '5', '6'], 'a, three after 3');
      },
    },
    {
      name: 'walks the plants a name finds exactly once each, ascending over the int64 range, while inserts run',
      run: async () => {
        const store = await subject.empty();
        const before = EDGE_IDS.flatMap((id, i) => [
          plant({ id, name: `Ficus lyrata ${i}` }),
          ...(id === PlantId.MAX ? [] : [plant({ id: id + 1n, name: `Hedera ${i}` })]),
        ]);
        await seed(store, before);
        const wanted = before.filter((p) => p.name.value.startsWith('Ficus')).map((p) => p.id.value);
        const seen: bigint[] = [];
        let after: PlantId | undefined;
        for (let writer = 0; ; writer++) {
          const page = await store.listPage({ after, tags: [], name: search('FICUS LYR'), limit: 2 });
          seen.push(...page.map((p) => p.id.value));
          for (const id of [BigInt(writer) * 7n + 100n, -1000n - BigInt(writer)])
            await store.insertIfAbsent(plant({ id, name: `ficus lyrata during ${writer}` }), provenance);
          if (page.length < 2) break;
          after = page[page.length - 1]!.id;
        }
        ensureEqual(new Set(seen).size, seen.length, 'plants seen more than once in the walk');
        for (const id of wanted) ensure(seen.includes(id), `the walk missed plant ${id}, stored before it began`);
        ensure(
          seen.every((v, i) => i === 0 || seen[i - 1]! < v),
          `the walk is not ascending: ${seen.join(', ')}`,
        );
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
