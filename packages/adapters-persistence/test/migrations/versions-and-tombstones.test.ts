import { SqlPlantEventOutbox, SqlPlantRepository } from '@plantstore/adapters-persistence';
import { PlantId, type PlantEvent } from '@plantstore/domain';
import { testEngines } from '../engines.js';
import { undoMigrationsThrough } from '../support/migrations.js';
import { useFreshStore } from '../support/use-store.js';
import { validPlant } from '../support/valid-inputs.js';

/** Plants as a store of the release before held them: the edges of int64, a tag or none, texts to keep exactly. */
const OLD_PLANTS: ReadonlyArray<readonly [id: string, name: string, tag: string | null]> = [
  ['-9223372036854775808', 'min', 'edge'],
  ['0', 'zero', null],
  ['9007199254740993', 'one past 2^53', 'exact'],
  ['9223372036854775807', `O'Brien"; 🌵`, ' spaced '],
];

/*
 * The migration that brings versions and tombstones, run on a store that already holds plants
 * and events waiting to be published, as an upgrade meets it: nothing held is lost or changed,
 * and the store can change and delete plants afterwards.
 */
describe.each(testEngines())('upgrading a $name store to versions and tombstones', (engine) => {
  const open = useFreshStore(engine);

  beforeAll(async () => {
    const { dataSource } = open();
    await undoMigrationsThrough(dataSource, 'AddPlantVersionsAndTombstones1764057600000');
    const postgres = engine.name === 'postgres';
    await dataSource.query('UPDATE plant_events SET enabled = TRUE WHERE id = 1');
    for (const [id, name, tag] of OLD_PLANTS) {
      await dataSource.query(
        `INSERT INTO plant (id, name, tag, created_by_token_id, created_at) VALUES (${postgres ? '$1, $2, $3, NULL, $4' : '?, ?, ?, NULL, ?'})`,
        [postgres ? id : BigInt(id), name, tag, '2026-11-20T10:00:00.000Z'],
      );
    }
    await dataSource.runMigrations();
  });

  it('keeps every plant exactly, each at version 1 and live', async () => {
    const plants = new SqlPlantRepository(open().dataSource);
    for (const [id, name, tag] of OLD_PLANTS) {
      const state = await plants.stateOf(PlantId.fromStored(id));
      expect(state?.live && [state.plant.toJSON(), state.version]).toEqual([
        { id, name, ...(tag === null ? {} : { tag }) },
        1,
      ]);
    }
  });

  it('keeps the events that waited, in order, as PlantCreated version 1', async () => {
    const outbox = new SqlPlantEventOutbox(open().dataSource);
    const events: PlantEvent[] = [];
    await outbox.relay(100, async (batch) => void events.push(...batch));
    expect(events.map((event) => [event.toJSON().type, event.plantId.toString(), event.version])).toEqual(
      OLD_PLANTS.map(([id]) => ['PlantCreated', id, 1]),
    );
  });

  it('changes and deletes an old plant, and its id stays retired', async () => {
    const plants = new SqlPlantRepository(open().dataSource);
    const id = PlantId.fromStored('0');
    const renamed = validPlant({ id: '0', name: 'renamed' });
    expect(await plants.replace(renamed, 1, { changedAt: new Date() })).toBe(true);
    expect(await plants.retire(id, 2, { retiredAt: new Date(), retiredByTokenId: undefined })).toBe(true);
    expect(await plants.insertIfAbsent(renamed, { createdByTokenId: undefined, createdAt: new Date() })).toEqual({
      inserted: false,
      retired: true,
    });
  });
});
