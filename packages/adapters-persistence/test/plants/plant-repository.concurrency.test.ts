import {
  DEFAULT_MAX_BATCH,
  SqlPlantRepository,
  lockWaitOf,
  type SqlPlantRepositoryOptions,
} from '@plantstore/adapters-persistence';
import { CreatePlant, type CreatePlantResult, type NewPlantInput } from '@plantstore/domain';
import type { DataSource } from 'typeorm';
import { testEngines } from '../engines.js';
import { clearStore, plantRows } from '../support/rows.js';
import { useFreshStore } from '../support/use-store.js';
import { validPlant } from '../support/valid-inputs.js';
import { FixedClock } from '@plantstore/domain/testing';

const clock = new FixedClock('2025-06-01T12:00:00.000Z');

/** CreatePlant over a fresh repository, taking inputs as the HTTP adapter does: parsed first. */
function createPlantOn(dataSource: DataSource, options: SqlPlantRepositoryOptions = {}) {
  const createPlant = new CreatePlant(new SqlPlantRepository(dataSource, options), clock);
  return {
    async execute({
      plant,
      createdByTokenId,
    }: {
      plant: NewPlantInput;
      createdByTokenId?: string;
    }): Promise<CreatePlantResult> {
      return createPlant.execute({ plant: validPlant(plant), createdByTokenId });
    },
  };
}

/** Outcome of each concurrent call, in submission order: 'created', 'replayed' or 'conflict'. */
function outcomes(settled: PromiseSettledResult<CreatePlantResult>[]): string[] {
  return settled.map((s) => {
    if (s.status === 'fulfilled') return s.value.outcome;
    throw s.reason; // A failure (a unique-key race leaking out) fails the test as it is.
  });
}

function tally(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

describe.each(testEngines())('concurrent creates on $name', (engine) => {
  const open = useFreshStore(engine);
  beforeEach(() => clearStore(open().dataSource));

  it('50 creates of one id with 50 names: one created, 49 conflicts, one row holding the winner', async () => {
    const createPlant = createPlantOn(open().dataSource);
    const settled = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => createPlant.execute({ plant: { id: '42', name: `name ${i}` } })),
    );
    expect(tally(outcomes(settled))).toEqual({ created: 1, conflict: 49 });
    const winner = settled.find((s) => s.status === 'fulfilled')!;
    expect(await plantRows(open().dataSource)).toEqual([{ id: '42', name: winner.value.plant.name.value, tag: null }]);
  });

  it('50 identical creates: all succeed, one created and the rest replayed, one row', async () => {
    const createPlant = createPlantOn(open().dataSource);
    const settled = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        createPlant.execute({ plant: { id: '9007199254740993', name: 'Aloe', tag: 'succulent' } }),
      ),
    );
    expect(tally(outcomes(settled))).toEqual({ created: 1, replayed: 49 });
    expect(await plantRows(open().dataSource)).toEqual([{ id: '9007199254740993', name: 'Aloe', tag: 'succulent' }]);
  });

  it('two stores on one database (two processes) racing on one id leave one row and one winner', async () => {
    const second = await open().store.open();
    try {
      const [a, b] = [createPlantOn(open().dataSource), createPlantOn(second)];
      const settled = await Promise.allSettled(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 === 0 ? a : b).execute({ plant: { id: '-7', name: `writer ${i}` } }),
        ),
      );
      expect(tally(outcomes(settled))).toEqual({ created: 1, conflict: 39 });
      expect(await plantRows(open().dataSource)).toHaveLength(1);
    } finally {
      await second.destroy();
    }
  });

  it('a later request for an id never commits before an earlier one held up by a lock', async () => {
    // The store's lock wait, as the apps open it: on SQLite the batch waits for the lock off the event loop.
    const lockWaitMs = lockWaitOf(open().store.config());
    const createPlant = createPlantOn(open().dataSource, { maxBatch: 2, lockWaitMs });
    // Another connection's open transaction holds id 5: the first batch ([5, 7]) waits for it.
    const blocker = await open().store.open();
    const runner = blocker.createQueryRunner();
    try {
      await runner.startTransaction();
      await runner.query(
        "INSERT INTO plant (id, name, tag, created_by_token_id, created_at) VALUES (5, 'elsewhere', NULL, NULL, '2025-06-01T12:00:00.000Z')",
      );
      const settling = Promise.allSettled([
        createPlant.execute({ plant: { id: '5', name: 'five' } }),
        createPlant.execute({ plant: { id: '7', name: 'first' } }),
        createPlant.execute({ plant: { id: '7', name: 'second' } }),
        createPlant.execute({ plant: { id: '9', name: 'nine' } }),
      ]);
      // Room for the second batch ([7 'second', 9]) to commit, were it let past the first.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await runner.rollbackTransaction();
      expect(outcomes(await settling)).toEqual(['created', 'created', 'conflict', 'created']);
      expect(await plantRows(open().dataSource)).toEqual([
        { id: '5', name: 'five', tag: null },
        { id: '7', name: 'first', tag: null },
        { id: '9', name: 'nine', tag: null },
      ]);
    } finally {
      await runner.release();
      await blocker.destroy();
    }
  });

  it('fails only the request whose row the database refuses; its neighbours in the batch are stored', async () => {
    const createPlant = createPlantOn(open().dataSource);
    // An unknown token id breaks the plant → api_token foreign key for that row alone.
    const settled = await Promise.allSettled([
      createPlant.execute({ plant: { id: '1', name: 'before' } }),
      createPlant.execute({ plant: { id: '2', name: 'orphan' }, createdByTokenId: 'no-such-token' }),
      createPlant.execute({ plant: { id: '3', name: 'after' } }),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await plantRows(open().dataSource)).map((row) => row.id)).toEqual(['1', '3']);
  });

  // maxBatch 2 splits one burst over many statements, so duplicates land in different batches.
  describe.each([DEFAULT_MAX_BATCH, 2])('a mixed burst with batches of at most %i', (maxBatch) => {
    it('gives every request the answer the rules call for', async () => {
      const createPlant = createPlantOn(open().dataSource, { maxBatch });
      const existing: NewPlantInput[] = [
        { id: '100', name: 'stored', tag: 'old' },
        { id: '101', name: 'stored' },
      ];
      for (const plant of existing) await createPlant.execute({ plant });

      const fresh = Array.from({ length: 30 }, (_, i): NewPlantInput => ({ id: String(1000 + i), name: `fresh ${i}` }));
      const burst: Array<{ input: NewPlantInput; expected: string }> = [
        ...fresh.map((input) => ({ input, expected: 'created' })),
        { input: { id: '9223372036854775807', name: 'max' }, expected: 'created' },
        { input: { id: '-9223372036854775808', name: 'min' }, expected: 'created' },
        { input: { id: '100', name: 'stored', tag: 'old' }, expected: 'replayed' },
        { input: { id: '101', name: 'stored', tag: 'new' }, expected: 'conflict' },
        // Duplicates inside the burst itself. One store takes requests in arrival order, so the
        // earlier of a pair is the one created and the later is compared against it.
        { input: { id: '1005', name: 'fresh 5' }, expected: 'replayed' },
        { input: { id: '1006', name: 'not fresh 6' }, expected: 'conflict' },
        { input: { id: '1007', name: 'fresh 7', tag: 'extra' }, expected: 'conflict' },
        { input: { id: '9223372036854775807', name: 'max' }, expected: 'replayed' },
      ];
      const settled = await Promise.allSettled(burst.map(({ input }) => createPlant.execute({ plant: input })));

      expect(outcomes(settled)).toEqual(burst.map((b) => b.expected));
      const expectedRows = [
        ...existing,
        ...fresh,
        { id: '9223372036854775807', name: 'max' },
        { id: '-9223372036854775808', name: 'min' },
      ];
      expect(await plantRows(open().dataSource)).toEqual(
        expectedRows
          .map((p) => ({ id: String(p.id), name: p.name, tag: p.tag ?? null }))
          .sort((x, y) => (BigInt(x.id) < BigInt(y.id) ? -1 : 1)),
      );
    });
  });
});
