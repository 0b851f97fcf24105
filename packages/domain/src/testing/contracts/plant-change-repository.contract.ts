import type { PlantChangeRepository, PlantRetirement } from '../../plants/plant-change-repository.js';
import { PlantId } from '../../plants/plant-id.js';
import { PlantNameSearch } from '../../plants/plant-name-search.js';
import type { PlantReader } from '../../plants/plant-reader.js';
import type { PlantBatchRepository, PlantProvenance, PlantRepository } from '../../plants/plant-repository.js';
import { ensure, ensureEqual, outcomeOf, plant, type ContractCheck } from './check.js';

const provenance: PlantProvenance = { createdByTokenId: undefined, createdAt: new Date('2025-06-01T12:00:00.000Z') };
const revision = { changedAt: new Date('2025-06-02T12:00:00.000Z') };
const retirement: PlantRetirement = { retiredAt: new Date('2025-06-03T12:00:00.000Z'), retiredByTokenId: undefined };
const TWO_TO_53_PLUS_1 = 9007199254740993n;

/** A store with every plant port: the change side is checked with the others' view of it. */
export type ChangingPlantStore = PlantRepository & PlantBatchRepository & PlantReader & PlantChangeRepository;

export interface PlantChangeRepositorySubject {
  /** A store holding no plant; called once at the start of every check. */
  empty(): Promise<ChangingPlantStore>;
}

function id(value: bigint | string): PlantId {
  const parsed = typeof value === 'bigint' ? PlantId.fromBigInt(value) : PlantId.fromLiteral(value);
  if (!(parsed instanceof PlantId)) throw new Error(`contract suite bug: ${parsed.message}`);
  return parsed;
}

/** Ids of the live plants whose name contains `text` (PlantNameSearch), ascending. */
async function namesFound(store: PlantReader, text: string): Promise<string[]> {
  const name = PlantNameSearch.create(text);
  if (!(name instanceof PlantNameSearch)) throw new Error(`contract suite bug: name ${text}`);
  return (await store.listPage({ after: undefined, tags: [], name, limit: 100 })).map((p) => p.id.toString());
}

/** The state as plain data: the plant's plain form and version, or a tombstone's version and time. */
async function stateOf(store: PlantChangeRepository, of: PlantId): Promise<unknown> {
  const state = await store.stateOf(of);
  if (state === undefined) return '<never created>';
  return state.live
    ? { live: state.plant.toJSON(), version: state.version }
    : { retired: state.id.toString(), version: state.version, at: state.retiredAt.toISOString() };
}

/** The checks every PlantChangeRepository must pass (see the port's comments). */
export function plantChangeRepositoryContract(subject: PlantChangeRepositorySubject): ContractCheck[] {
  return [
    {
      name: 'knows no state of an id never created, and refuses to change or retire it',
      run: async () => {
        const store = await subject.empty();
        ensureEqual(await stateOf(store, id('1')), '<never created>', 'state of id 1');
        ensureEqual(await store.replace(plant({ id: '1', name: 'Fern' }), 1, revision), false, 'replace of id 1');
        ensureEqual(await store.retire(id('1'), 1, retirement), false, 'retire of id 1');
        ensureEqual(await stateOf(store, id('1')), '<never created>', 'state of id 1 afterwards');
      },
    },
    {
      name: 'holds a created plant live at version 1',
      run: async () => {
        const store = await subject.empty();
        await store.insertIfAbsent(plant({ id: '1', name: 'Fern', tag: 'shade' }), provenance);
        ensureEqual(
          await stateOf(store, id('1')),
          { live: { id: '1', name: 'Fern', tag: 'shade' }, version: 1 },
          'state after the create',
        );
      },
    },
    {
      name: 'replaces name and tag at the version it was given, and every read sees the next version',
      run: async () => {
        const store = await subject.empty();
        await store.insertIfAbsent(plant({ id: '1', name: 'Fern', tag: 'shade' }), provenance);
        ensureEqual(await store.replace(plant({ id: '1', name: 'Boston fern' }), 1, revision), true, 'replace at 1');
        ensureEqual(
          await stateOf(store, id('1')),
          { live: { id: '1', name: 'Boston fern' }, version: 2 },
          'state after the replace (the tag removed)',
        );
        ensureEqual((await store.findById(id('1')))?.toJSON(), { id: '1', name: 'Boston fern' }, 'findById');
        const listed = await store.listPage({ after: undefined, tags: [], limit: 10 });
        ensureEqual(
          listed.map((p) => p.toJSON()),
          [{ id: '1', name: 'Boston fern' }],
          'listPage',
        );
      },
    },
    {
      name: 'refuses a replace or a retire at a version that is no longer the plant’s, and keeps the plant',
      run: async () => {
        const store = await subject.empty();
        await store.insertIfAbsent(plant({ id: '1', name: 'Fern' }), provenance);
        await store.replace(plant({ id: '1', name: 'Second' }), 1, revision);
        ensureEqual(await store.replace(plant({ id: '1', name: 'Stale' }), 1, revision), false, 'replace at 1 again');
        ensureEqual(await store.retire(id('1'), 1, retirement), false, 'retire at 1');
        ensureEqual(
          await stateOf(store, id('1')),
          { live: { id: '1', name: 'Second' }, version: 2 },
          'state after the stale writes',
        );
      },
    },
    {
      name: 'retires a plant for good: a tombstone one version on, no content, in no read or list',
      run: async () => {
        const store = await subject.empty();
        await store.insertIfAbsent(plant({ id: '1', name: 'Fern', tag: 'shade' }), provenance);
        await store.insertIfAbsent(plant({ id: '2', name: 'Aloe', tag: 'shade' }), provenance);
        ensureEqual(await store.retire(id('1'), 1, retirement), true, 'retire at 1');
        ensureEqual(
          await stateOf(store, id('1')),
          { retired: '1', version: 2, at: retirement.retiredAt.toISOString() },
          'state after the retire',
        );
        ensureEqual(await store.findById(id('1')), undefined, 'findById of the retired id');
        const listed = await store.listPage({ after: undefined, tags: [], limit: 10 });
        ensureEqual(
          listed.map((p) => p.id.toString()),
          ['2'],
          'listPage',
        );
        const exported = await store.listAfter(undefined, 10);
        ensureEqual(
          exported.map((p) => p.id.toString()),
          ['2'],
          'listAfter',
        );
      },
    },
    {
      name: 'never lets a retired id be used again: creates and imports, with any content, find it retired',
      run: async () => {
        const store = await subject.empty();
        const fern = plant({ id: '1', name: 'Fern' });
        await store.insertIfAbsent(fern, provenance);
        await store.retire(id('1'), 1, retirement);
        ensureEqual(outcomeOf(await store.insertIfAbsent(fern, provenance)), 'retired', 'the same create again');
        ensureEqual(
          outcomeOf(await store.insertIfAbsent(plant({ id: '1', name: 'Other' }), provenance)),
          'retired',
          'another create of the id',
        );
        const imported = await store.insertAllIfAbsent(
          [plant({ id: '1', name: 'Fern' }), plant({ id: '2', name: 'New' })],
          provenance,
        );
        ensureEqual(imported.map(outcomeOf), ['retired', 'inserted'], 'an import holding the id');
        ensureEqual(
          await store.replace(plant({ id: '1', name: 'Back' }), 2, revision),
          false,
          'replace of the tombstone',
        );
        ensureEqual(await store.retire(id('1'), 2, retirement), false, 'retire of the tombstone');
        ensureEqual(await store.findById(id('1')), undefined, 'findById afterwards');
      },
    },
    {
      name: 'keeps ids exact: a change of 2^53 + 1 leaves 2^53 as it was',
      run: async () => {
        const store = await subject.empty();
        await store.insertIfAbsent(plant({ id: TWO_TO_53_PLUS_1 - 1n, name: 'even' }), provenance);
        await store.insertIfAbsent(plant({ id: TWO_TO_53_PLUS_1, name: 'odd' }), provenance);
        await store.replace(plant({ id: TWO_TO_53_PLUS_1, name: 'odd, renamed' }), 1, revision);
        await store.retire(id(TWO_TO_53_PLUS_1), 2, retirement);
        ensureEqual(
          await stateOf(store, id(TWO_TO_53_PLUS_1 - 1n)),
          { live: { id: '9007199254740992', name: 'even' }, version: 1 },
          'state of 2^53',
        );
        ensureEqual(
          await stateOf(store, id(TWO_TO_53_PLUS_1)),
          { retired: '9007199254740993', version: 3, at: retirement.retiredAt.toISOString() },
          'state of 2^53 + 1',
        );
      },
    },
    {
      name: 'lets exactly one of 20 concurrent writes at one version win, replaces and retires alike',
      run: async () => {
        const store = await subject.empty();
        await store.insertIfAbsent(plant({ id: '1', name: 'Fern' }), provenance);
        const writes = Array.from({ length: 20 }, (_, i) =>
          i % 5 === 4
            ? store.retire(id('1'), 1, retirement)
            : store.replace(plant({ id: '1', name: `Fern ${i}` }), 1, revision),
        );
        const won = (await Promise.all(writes)).filter(Boolean).length;
        ensureEqual(won, 1, 'writes that won');
        const state = await store.stateOf(id('1'));
        ensure(state?.version === 2, `the plant is one version on, got ${String(state?.version)}`);
      },
    },
    {
      name: 'finds a plant by its name as it is now: a replace and a retire change what a name search finds, at once',
      run: async () => {
        const store = await subject.empty();
        await store.insertAllIfAbsent(
          [
            plant({ id: '1', name: 'Fougère' }),
            plant({ id: '2', name: 'Fougère mâle' }),
            plant({ id: '3', name: 'Aloe' }),
          ],
          provenance,
        );
        ensureEqual(await namesFound(store, 'fougere'), ['1', '2'], 'fougere after the import');
        await store.replace(plant({ id: '1', name: 'Capillaire' }), 1, revision);
        ensureEqual(await namesFound(store, 'fougere'), ['2'], 'fougere after plant 1 is renamed');
        ensureEqual(await namesFound(store, 'CAPILL'), ['1'], 'CAPILL after plant 1 is renamed');
        await store.replace(plant({ id: '3', name: 'Aloe fougère' }), 1, revision);
        ensureEqual(await namesFound(store, 'fougere'), ['2', '3'], 'fougere after plant 3 is renamed');
        await store.retire(id('2'), 1, retirement);
        ensureEqual(await namesFound(store, 'fougere'), ['3'], 'fougere after plant 2 is deleted');
        ensureEqual(await namesFound(store, 'male'), [], 'male after plant 2 is deleted');
        await store.retire(id('1'), 2, retirement);
        ensureEqual(await namesFound(store, 'capill'), [], 'capill after plant 1 is deleted');
      },
    },
  ];
}
