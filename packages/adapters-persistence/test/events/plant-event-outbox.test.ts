import { SqlPlantEventOutbox, SqlPlantRepository } from '@plantstore/adapters-persistence';
import type { PlantEvent } from '@plantstore/domain';
import type { DataSource } from 'typeorm';
import { testEngines } from '../engines.js';
import { clearStore, plantRows } from '../support/rows.js';
import { useFreshStore } from '../support/use-store.js';
import { undoMigrationsThrough } from '../support/migrations.js';
import { validPlant as plant } from '../support/valid-inputs.js';

const anEventId: unknown = expect.stringMatching(
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
);

const provenance = { createdByTokenId: undefined, createdAt: new Date('2026-11-22T12:00:00.000Z') };

/** Every event the outbox holds, drained through `relay` into a list. */
async function drain(outbox: SqlPlantEventOutbox): Promise<PlantEvent[]> {
  const published: PlantEvent[] = [];
  while ((await outbox.relay(100, (events) => Promise.resolve(void published.push(...events)))) > 0);
  return published;
}

/** The name an event carries: a deletion's none. */
function nameOf(event: PlantEvent): string | undefined {
  const json = event.toJSON();
  return 'name' in json ? json.name : undefined;
}

/** Makes the outbox refuse events of plants named `name`, as a full disk or a bug would. */
async function refuseEventsNamed(dataSource: DataSource, name: string): Promise<void> {
  if (dataSource.options.type === 'postgres') {
    await dataSource.query(`CREATE OR REPLACE FUNCTION refuse_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.name = '${name}' THEN RAISE EXCEPTION 'outbox refused'; END IF; RETURN NEW; END $$`);
    await dataSource.query(
      'CREATE TRIGGER refuse_event BEFORE INSERT ON plant_outbox FOR EACH ROW EXECUTE FUNCTION refuse_event()',
    );
  } else {
    await dataSource.query(`CREATE TRIGGER refuse_event BEFORE INSERT ON plant_outbox WHEN NEW.name = '${name}'
      BEGIN SELECT RAISE(ABORT, 'outbox refused'); END`);
  }
}

async function allowEvents(dataSource: DataSource): Promise<void> {
  const postgres = dataSource.options.type === 'postgres';
  await dataSource.query(`DROP TRIGGER IF EXISTS refuse_event${postgres ? ' ON plant_outbox' : ''}`);
}

describe.each(testEngines())('the plant events outbox on $name', (engine) => {
  const open = useFreshStore(engine);
  let plants: SqlPlantRepository;
  let outbox: SqlPlantEventOutbox;

  beforeEach(async () => {
    await allowEvents(open().dataSource);
    await clearStore(open().dataSource);
    plants = new SqlPlantRepository(open().dataSource);
    outbox = new SqlPlantEventOutbox(open().dataSource);
    await outbox.enableEvents();
  });

  it('holds one event per created plant, with the stored fields, and none for a replay or a conflict', async () => {
    await plants.insertIfAbsent(plant({ id: '9223372036854775807', name: 'Monstera', tag: 'Araceae' }), provenance);
    await Promise.all([
      plants.insertIfAbsent(plant({ id: '9223372036854775807', name: 'Monstera', tag: 'Araceae' }), provenance),
      plants.insertIfAbsent(plant({ id: '9223372036854775807', name: 'Other' }), provenance),
      plants.insertIfAbsent(plant({ id: '-5', name: 'Fern' }), provenance),
    ]);
    const events = await drain(outbox);
    expect(
      events
        .map((event) => event.toJSON())
        .sort((a, b) => ('name' in a ? a.name : '').localeCompare('name' in b ? b.name : '')),
    ).toEqual([
      {
        type: 'PlantCreated',
        eventId: anEventId,
        plantId: '-5',
        version: 1,
        name: 'Fern',
        createdAt: provenance.createdAt.toISOString(),
      },
      {
        type: 'PlantCreated',
        eventId: anEventId,
        plantId: '9223372036854775807',
        version: 1,
        name: 'Monstera',
        tag: 'Araceae',
        createdAt: provenance.createdAt.toISOString(),
      },
    ]);
    expect(new Set(events.map((event) => event.eventId)).size).toBe(2);
  });

  it('holds one event per committed change, each with the version it made, and none for a write that lost', async () => {
    const fern = plant({ id: '9007199254740993', name: 'Fern', tag: 'shade' });
    await plants.insertIfAbsent(fern, provenance);
    const changedAt = new Date('2026-11-23T12:00:00.000Z');
    const deletedAt = new Date('2026-11-24T12:00:00.000Z');
    await Promise.all([
      plants.replace(plant({ id: '9007199254740993', name: 'Boston fern' }), 1, { changedAt }),
      // The same version again: this write loses, and makes no event.
      plants.replace(plant({ id: '9007199254740993', name: 'Lost' }), 1, { changedAt }),
    ]);
    await plants.retire(fern.id, 2, { retiredAt: deletedAt, retiredByTokenId: undefined });
    await plants.retire(fern.id, 3, { retiredAt: deletedAt, retiredByTokenId: undefined });
    const events = (await drain(outbox)).map((event) => event.toJSON());
    expect(events).toEqual([
      expect.objectContaining({ type: 'PlantCreated', plantId: '9007199254740993', version: 1, name: 'Fern' }),
      {
        type: 'PlantUpdated',
        eventId: anEventId,
        plantId: '9007199254740993',
        version: 2,
        name: 'Boston fern',
        updatedAt: changedAt.toISOString(),
      },
      {
        type: 'PlantDeleted',
        eventId: anEventId,
        plantId: '9007199254740993',
        version: 3,
        deletedAt: deletedAt.toISOString(),
      },
    ]);
    expect(new Set(events.map((event) => event.eventId)).size).toBe(3);
  });

  it('writes the events of an import batch with its plants, only for the rows inserted', async () => {
    await plants.insertAllIfAbsent([plant({ id: '1', name: 'One' })], provenance);
    await drain(outbox);
    await plants.insertAllIfAbsent(
      [plant({ id: '1', name: 'One' }), plant({ id: '2', name: 'Two' }), plant({ id: '3', name: 'Three' })],
      provenance,
    );
    expect((await drain(outbox)).map((event) => event.plantId.toString()).sort()).toEqual(['2', '3']);
  });

  it('stores neither the plants nor the events of a batch whose event is refused', async () => {
    await refuseEventsNamed(open().dataSource, 'boom');
    await expect(
      plants.insertAllIfAbsent([plant({ id: '1', name: 'fine' }), plant({ id: '2', name: 'boom' })], provenance),
    ).rejects.toThrow();
    expect(await plantRows(open().dataSource)).toEqual([]);
    expect(await outbox.backlog()).toEqual({ events: 0, oldestCreatedAt: undefined });
  });

  it('stores no event for a plant the database refuses, and the neighbours of a group commit keep theirs', async () => {
    const unknownToken = { createdByTokenId: 'no-such-token', createdAt: provenance.createdAt };
    const results = await Promise.allSettled([
      plants.insertIfAbsent(plant({ id: '1', name: 'refused' }), unknownToken),
      plants.insertIfAbsent(plant({ id: '2', name: 'kept' }), provenance),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled']);
    expect((await drain(outbox)).map((event) => nameOf(event))).toEqual(['kept']);
  });

  it('keeps the events whose publication failed, and deletes them once a publication succeeds', async () => {
    await plants.insertAllIfAbsent([plant({ id: '1', name: 'One' }), plant({ id: '2', name: 'Two' })], provenance);
    await expect(outbox.relay(10, () => Promise.reject(new Error('broker down')))).rejects.toThrow('broker down');
    expect(await outbox.backlog()).toEqual({ events: 2, oldestCreatedAt: provenance.createdAt });
    expect((await drain(outbox)).map((event) => event.plantId.toString())).toEqual(['1', '2']);
    expect((await outbox.backlog()).events).toBe(0);
  });

  it('deletes only the events it published: those of plants created during the publish stay for the next', async () => {
    await plants.insertAllIfAbsent([plant({ id: '1', name: 'One' }), plant({ id: '2', name: 'Two' })], provenance);
    const relayed = await outbox.relay(1, async () => {
      await plants.insertIfAbsent(plant({ id: '3', name: 'Three' }), provenance);
    });
    expect(relayed).toBe(1);
    expect((await drain(outbox)).map((event) => event.plantId.toString())).toEqual(['2', '3']);
  });

  if (engine.name === 'postgres') {
    it('gives rows claimed by one relay to no other until it is done', async () => {
      await plants.insertAllIfAbsent(
        Array.from({ length: 6 }, (_, i) => plant({ id: String(i), name: `p${i}` })),
        provenance,
      );
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let firstClaimed: readonly PlantEvent[] = [];
      const first = outbox.relay(3, async (events) => {
        firstClaimed = events;
        await held;
      });
      while (firstClaimed.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const second: PlantEvent[] = [];
      await outbox.relay(10, (events) => Promise.resolve(void second.push(...events)));
      release();
      await first;
      expect(firstClaimed.map((event) => event.plantId.toString())).toEqual(['0', '1', '2']);
      expect(second.map((event) => event.plantId.toString())).toEqual(['3', '4', '5']);
      expect((await outbox.backlog()).events).toBe(0);
    });
  }
});

describe.each(testEngines())('the plant events switch on $name', (engine) => {
  const open = useFreshStore(engine);
  let plants: SqlPlantRepository;
  let outbox: SqlPlantEventOutbox;

  beforeEach(async () => {
    await clearStore(open().dataSource);
    plants = new SqlPlantRepository(open().dataSource);
    outbox = new SqlPlantEventOutbox(open().dataSource);
    await outbox.disableEvents();
  });

  it('keeps no event of a change or a deletion while events are off', async () => {
    await plants.insertIfAbsent(plant({ id: '1', name: 'Quiet' }), provenance);
    await plants.replace(plant({ id: '1', name: 'Still quiet' }), 1, { changedAt: new Date() });
    await plants.retire(plant({ id: '1', name: 'x' }).id, 2, { retiredAt: new Date(), retiredByTokenId: undefined });
    expect((await outbox.backlog()).events).toBe(0);
  });

  it('keeps no event while events are off (a new store), so the outbox never grows unread', async () => {
    const fresh = await engine.createStore();
    try {
      const dataSource = await fresh.open();
      try {
        const freshOutbox = new SqlPlantEventOutbox(dataSource);
        expect(await freshOutbox.eventsEnabled()).toBe(false);
        await new SqlPlantRepository(dataSource).insertIfAbsent(plant({ id: '1', name: 'Fern' }), provenance);
        expect(await freshOutbox.backlog()).toEqual({ events: 0, oldestCreatedAt: undefined });
      } finally {
        await dataSource.destroy();
      }
    } finally {
      await fresh.remove();
    }
  });

  it('once on, stores events for plants created from then on, none for those before, and says how many', async () => {
    await plants.insertIfAbsent(plant({ id: '1', name: 'Before' }), provenance);
    expect(await outbox.enableEvents()).toEqual({ changed: true, plants: 1 });
    expect(await outbox.enableEvents()).toEqual({ changed: false, plants: 0 });
    await plants.insertIfAbsent(plant({ id: '2', name: 'After' }), provenance);
    expect((await drain(outbox)).map((event) => nameOf(event))).toEqual(['After']);
  });

  it('once off again, discards the events not yet published and stores no more', async () => {
    await outbox.enableEvents();
    await plants.insertIfAbsent(plant({ id: '1', name: 'Waiting' }), provenance);
    expect(await outbox.disableEvents()).toEqual({ changed: true, plants: 1 });
    await plants.insertIfAbsent(plant({ id: '2', name: 'Unseen' }), provenance);
    expect((await outbox.backlog()).events).toBe(0);
    expect(await outbox.disableEvents()).toEqual({ changed: false, plants: 0 });
  });

  it('stays on for a store that already held plants when the switch arrived (as before it)', async () => {
    const { dataSource } = open();
    // Back to before the switch: the migrations after it, then the switch's.
    await undoMigrationsThrough(dataSource, 'AddPlantEventsSwitch1763884800000');
    try {
      // As that release wrote a plant: the statements of today name columns it did not have.
      const postgres = dataSource.options.type === 'postgres';
      await dataSource.query(
        `INSERT INTO plant (id, name, tag, created_by_token_id, created_at) VALUES (${postgres ? '$1, $2, NULL, NULL, $3' : '?, ?, NULL, NULL, ?'})`,
        [postgres ? '7' : 7n, 'Old', provenance.createdAt.toISOString()],
      );
    } finally {
      await dataSource.runMigrations();
    }
    expect(await outbox.eventsEnabled()).toBe(true);
    await plants.insertIfAbsent(plant({ id: '8', name: 'New' }), provenance);
    expect((await drain(outbox)).map((event) => nameOf(event))).toEqual(['Old', 'New']);
  });
});
