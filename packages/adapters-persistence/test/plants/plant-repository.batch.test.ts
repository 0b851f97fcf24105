import { MAX_ROWS_PER_STATEMENT, SqlPlantRepository } from '@plantstore/adapters-persistence';
import { PlantId } from '@plantstore/domain';
import { testEngines } from '../engines.js';
import { clearStore, plantRows } from '../support/rows.js';
import { useFreshStore } from '../support/use-store.js';
import { validPlant as plant } from '../support/valid-inputs.js';

const provenance = { createdByTokenId: undefined, createdAt: new Date('2025-06-01T12:00:00.000Z') };

describe.each(testEngines())('SqlPlantRepository batches on $name', (engine) => {
  const open = useFreshStore(engine);
  let repository: SqlPlantRepository;

  beforeEach(async () => {
    await clearStore(open().dataSource);
    repository = new SqlPlantRepository(open().dataSource);
  });

  it('inserts the free ids and answers the stored plant for the taken ones, in input order', async () => {
    await repository.insertAllIfAbsent([plant({ id: '2', name: 'Ivy' })], provenance);
    const outcomes = await repository.insertAllIfAbsent(
      [
        plant({ id: '3', name: 'Sage', tag: 'herb' }),
        plant({ id: '2', name: 'Not ivy' }),
        plant({ id: PlantId.MAX, name: 'max' }),
      ],
      provenance,
    );
    expect(
      outcomes.map((o) =>
        o.inserted ? 'inserted' : 'existing' in o ? `existing ${o.existing.name.value}` : 'retired',
      ),
    ).toEqual(['inserted', 'existing Ivy', 'inserted']);
    expect(await plantRows(open().dataSource)).toEqual([
      { id: '2', name: 'Ivy', tag: null },
      { id: '3', name: 'Sage', tag: 'herb' },
      { id: String(PlantId.MAX), name: 'max', tag: null },
    ]);
  });

  it(`takes ${MAX_ROWS_PER_STATEMENT} plants in one statement and refuses more rather than splitting the transaction`, async () => {
    const plants = Array.from({ length: MAX_ROWS_PER_STATEMENT }, (_, i) => plant({ id: String(i), name: `p${i}` }));
    expect((await repository.insertAllIfAbsent(plants, provenance)).every((o) => o.inserted)).toBe(true);
    await expect(
      repository.insertAllIfAbsent([...plants, plant({ id: '-1', name: 'one too many' })], provenance),
    ).rejects.toThrow(RangeError);
    expect((await plantRows(open().dataSource)).length).toBe(MAX_ROWS_PER_STATEMENT);
  });

  it('lists pages ascending by id with exact int64 ids, starting after the id given', async () => {
    const ids = [PlantId.MAX, 9007199254740993n, 9007199254740992n, 0n, -1n, PlantId.MIN];
    await repository.insertAllIfAbsent(
      ids.map((id) => plant({ id, name: `n${id}` })),
      provenance,
    );
    const first = await repository.listAfter(undefined, 4);
    expect(first.map((p) => p.id.toString())).toEqual([PlantId.MIN, -1n, 0n, 9007199254740992n].map(String));
    const rest = await repository.listAfter(first[3]!.id, 4);
    expect(rest.map((p) => [p.id.toString(), p.name.value])).toEqual([
      ['9007199254740993', 'n9007199254740993'],
      [String(PlantId.MAX), `n${PlantId.MAX}`],
    ]);
    expect(await repository.listAfter(PlantId.fromStored(PlantId.MAX), 4)).toEqual([]);
  });
});
