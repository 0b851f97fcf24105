import { PlantId } from '../../plants/plant-id.js';
import type { PlantBatchRepository, PlantProvenance, PlantRepository } from '../../plants/plant-repository.js';
import { ensure, ensureEqual, ensureRejects, outcomeOf, plant, type ContractCheck } from './check.js';

const provenance: PlantProvenance = { createdByTokenId: undefined, createdAt: new Date('2025-06-01T12:00:00.000Z') };
const TWO_TO_53 = 9007199254740992n;

/** Texts a store must keep exactly: astral characters, edge spaces, decomposed accents, U+FEFF, SQL metacharacters. */
const EXACT_TEXTS: ReadonlyArray<readonly [label: string, name: string, tag: string]> = [
  ['200 astral characters', '🌵'.repeat(200), '𝄞'.repeat(64)],
  ['surrounding and ideographic spaces', '  Ficus\u3000', ' Moraceae '],
  ['a decomposed accent', 'Cafe\u0301', 'cafe\u0301'],
  ['U+FEFF alone', '\uFEFF', '\uFEFF'],
  ['quotes and a semicolon', `O'Brien"; DROP TABLE plant; --`, `'); --`],
];

export interface PlantRepositorySubject {
  /** A repository over a store holding no plant; called once at the start of every check. */
  empty(): Promise<PlantRepository>;
}

/** The checks every PlantRepository must pass (see the port's comments). */
export function plantRepositoryContract(subject: PlantRepositorySubject): ContractCheck[] {
  return [
    {
      name: 'inserts a plant whose id is free',
      run: async () => {
        const plants = await subject.empty();
        ensureEqual(
          outcomeOf(await plants.insertIfAbsent(plant({ id: '1', name: 'Monstera' }), provenance)),
          'inserted',
          'first insert of id 1',
        );
      },
    },
    {
      name: 'a second insert with another name reports the stored plant, and keeps it',
      run: async () => {
        const plants = await subject.empty();
        const stored = plant({ id: '1', name: 'Monstera', tag: 'Araceae' });
        await plants.insertIfAbsent(stored, provenance);
        const second = await plants.insertIfAbsent(plant({ id: '1', name: 'Ficus' }), provenance);
        ensureEqual(outcomeOf(second), { existing: stored.toJSON() }, 'second insert of id 1 with another name');
        const third = await plants.insertIfAbsent(plant({ id: '1', name: 'Pothos', tag: 'Araceae' }), provenance);
        ensureEqual(
          outcomeOf(third),
          { existing: stored.toJSON() },
          'third insert of id 1: the first plant is still stored',
        );
      },
    },
    {
      name: 'a second insert with the same content reports the stored plant',
      run: async () => {
        const plants = await subject.empty();
        await plants.insertIfAbsent(plant({ id: '1', name: 'Monstera' }), provenance);
        const again = await plants.insertIfAbsent(plant({ id: '1', name: 'Monstera' }), provenance);
        ensureEqual(outcomeOf(again), { existing: { id: '1', name: 'Monstera' } }, 'same plant inserted again');
      },
    },
    {
      name: "identifies a plant by its id's value, not by the PlantId object: 100, 1e2 and 100n are one id",
      run: async () => {
        const plants = await subject.empty();
        await plants.insertIfAbsent(plant({ id: '100', name: 'first' }), provenance);
        for (const id of ['1e2', '100.0', 100n]) {
          const again = await plants.insertIfAbsent(plant({ id, name: 'second' }), provenance);
          ensureEqual(
            outcomeOf(again),
            { existing: { id: '100', name: 'first' } },
            `insert of id written ${String(id)}`,
          );
        }
      },
    },
    {
      name: 'keeps ids exact: 9007199254740992 and 9007199254740993 are two plants',
      run: async () => {
        const plants = await subject.empty();
        ensureEqual(
          outcomeOf(await plants.insertIfAbsent(plant({ id: TWO_TO_53, name: 'even' }), provenance)),
          'inserted',
          'insert of 2^53',
        );
        ensureEqual(
          outcomeOf(await plants.insertIfAbsent(plant({ id: TWO_TO_53 + 1n, name: 'odd' }), provenance)),
          'inserted',
          'insert of 2^53 + 1',
        );
        const odd = await plants.insertIfAbsent(plant({ id: TWO_TO_53 + 1n, name: 'other' }), provenance);
        ensureEqual(outcomeOf(odd), { existing: { id: '9007199254740993', name: 'odd' } }, 'insert of 2^53 + 1 again');
      },
    },
    {
      name: 'stores the ends of the int64 range and reports them exactly',
      run: async () => {
        const plants = await subject.empty();
        for (const id of [PlantId.MIN, PlantId.MAX, -1n, 0n]) {
          await plants.insertIfAbsent(plant({ id, name: `n${id}` }), provenance);
          const again = await plants.insertIfAbsent(plant({ id, name: 'other' }), provenance);
          ensureEqual(outcomeOf(again), { existing: { id: String(id), name: `n${id}` } }, `insert of ${id} again`);
        }
      },
    },
    {
      name: 'keeps names and tags exactly as given (astral, spaces, accents, U+FEFF, quotes)',
      run: async () => {
        const plants = await subject.empty();
        for (const [index, [label, name, tag]] of EXACT_TEXTS.entries()) {
          await plants.insertIfAbsent(plant({ id: BigInt(index), name, tag }), provenance);
          const again = await plants.insertIfAbsent(plant({ id: BigInt(index), name: 'other' }), provenance);
          ensureEqual(outcomeOf(again), { existing: { id: String(index), name, tag } }, label);
        }
      },
    },
    {
      name: 'keeps an absent tag absent',
      run: async () => {
        const plants = await subject.empty();
        await plants.insertIfAbsent(plant({ id: '1', name: 'Aloe' }), provenance);
        const again = await plants.insertIfAbsent(plant({ id: '1', name: 'Aloe', tag: 'succulent' }), provenance);
        const storedTag = 'existing' in again ? again.existing.tag?.value : 'no plant stored';
        ensure(storedTag === undefined, `the stored plant has no tag, got ${String(storedTag)}`);
      },
    },
    {
      name: 'lets exactly one of 20 concurrent inserts of one id win, and tells every other what the winner stored',
      run: async () => {
        const plants = await subject.empty();
        const attempts = Array.from({ length: 20 }, (_, i) => plant({ id: '42', name: `writer ${i}` }));
        const outcomes = await Promise.all(attempts.map((attempt) => plants.insertIfAbsent(attempt, provenance)));
        const winners = outcomes.flatMap((outcome, i) => (outcome.inserted ? [attempts[i]!] : []));
        ensureEqual(winners.length, 1, 'inserts that report inserted');
        for (const outcome of outcomes) {
          if (!outcome.inserted) ensureEqual(outcomeOf(outcome), { existing: winners[0]!.toJSON() }, 'a losing insert');
        }
      },
    },
  ];
}

export interface PlantBatchRepositorySubject {
  /** A repository over a store holding no plant; called once at the start of every check. */
  empty(): Promise<PlantBatchRepository>;
  /**
   * A provenance this store refuses (say, a `createdByTokenId` naming no token, where a
   * foreign key checks it). When given, a check makes sure a refused batch stores nothing.
   */
  readonly refusedProvenance?: PlantProvenance;
}

/** The checks every PlantBatchRepository must pass (see the port's comments). */
export function plantBatchRepositoryContract(subject: PlantBatchRepositorySubject): ContractCheck[] {
  const checks: ContractCheck[] = [
    {
      name: 'answers one outcome per plant in input order: inserted where the id was free, the stored plant where taken',
      run: async () => {
        const plants = await subject.empty();
        await plants.insertAllIfAbsent([plant({ id: '2', name: 'Ivy' })], provenance);
        const outcomes = await plants.insertAllIfAbsent(
          [
            plant({ id: '3', name: 'Sage', tag: 'herb' }),
            plant({ id: '2', name: 'Not ivy' }),
            plant({ id: PlantId.MAX, name: 'max' }),
          ],
          provenance,
        );
        ensureEqual(
          outcomes.map(outcomeOf),
          ['inserted', { existing: { id: '2', name: 'Ivy' } }, 'inserted'],
          'outcomes of the second batch',
        );
      },
    },
    {
      name: 'answers an empty batch with no outcome and stores nothing',
      run: async () => {
        const plants = await subject.empty();
        ensureEqual(await plants.insertAllIfAbsent([], provenance), [], 'outcomes of an empty batch');
        ensureEqual(await plants.listAfter(undefined, 10), [], 'plants listed after an empty batch');
      },
    },
    {
      name: "identifies a plant by its id's value in batches too: 1e2 finds 100",
      run: async () => {
        const plants = await subject.empty();
        await plants.insertAllIfAbsent([plant({ id: '100', name: 'first' })], provenance);
        const [outcome] = await plants.insertAllIfAbsent([plant({ id: '1e2', name: 'second' })], provenance);
        ensureEqual(outcomeOf(outcome), { existing: { id: '100', name: 'first' } }, 'batch insert of id 1e2');
      },
    },
    {
      name: 'lists pages ascending by id value over the whole int64 range, starting after the id given',
      run: async () => {
        const plants = await subject.empty();
        // In this order a store sorting ids as text (or as floats) would get the pages wrong.
        const ids = [PlantId.MAX, TWO_TO_53 + 1n, TWO_TO_53, 10n, 9n, 0n, -1n, -10n, PlantId.MIN];
        await plants.insertAllIfAbsent(
          ids.map((id) => plant({ id, name: `n${id}` })),
          provenance,
        );
        const ascending = [...ids].sort((a, b) => (a < b ? -1 : 1)).map(String);
        const first = await plants.listAfter(undefined, 4);
        ensureEqual(
          first.map((p) => p.id.toString()),
          ascending.slice(0, 4),
          'first page of 4',
        );
        // A fresh PlantId object for the cursor: the store must compare values.
        const second = await plants.listAfter(PlantId.fromStored(first[3]!.id.toString()), 4);
        ensureEqual(
          second.map((p) => p.toJSON()),
          ascending.slice(4, 8).map((id) => ({ id, name: `n${id}` })),
          'second page of 4',
        );
        ensureEqual(
          (await plants.listAfter(PlantId.fromStored(PlantId.MAX), 4)).length,
          0,
          'plants listed after the maximum id',
        );
      },
    },
  ];
  const { refusedProvenance } = subject;
  if (refusedProvenance !== undefined) {
    checks.push({
      name: 'stores none of the plants of a batch it refuses',
      run: async () => {
        const plants = await subject.empty();
        const batch = [plant({ id: '1', name: 'a' }), plant({ id: '2', name: 'b' }), plant({ id: '3', name: 'c' })];
        await ensureRejects(
          () => plants.insertAllIfAbsent(batch, refusedProvenance),
          'a batch with the refused provenance',
        );
        ensureEqual(await plants.listAfter(undefined, 10), [], 'plants listed after the refused batch');
      },
    });
  }
  return checks;
}
