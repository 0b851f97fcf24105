import Database from 'better-sqlite3';
import type { PlantEvent } from '@plantstore/domain';

export interface CataloguePlant {
  readonly id: string;
  readonly name: string;
  readonly tag: string | null;
  readonly version: number;
}

/**
 * What applying one event did: `applied` changed the catalogue; `duplicate` was applied before
 * (a redelivery: its event id is known); `early` comes after a version not yet applied, so it
 * waits for it (the caller asks for a redelivery later). A known version under a new event id
 * throws: the store never sends one.
 */
export type Outcome = 'applied' | 'duplicate' | 'early';

interface StoredPlant {
  readonly version: number;
  readonly deleted: number;
}

/**
 * This app's own projection of the store's plants, in its own SQLite file. Each plant keeps its
 * version, and a deleted plant stays as a tombstone, so that an event is applied only on top of
 * the version before it: a late or redelivered create or update never brings a deleted plant
 * back, and never undoes a newer change. Each event is applied at most once: its event id is
 * recorded with its (plant, version) in the same transaction as its effect.
 */
export class PlantCatalogue {
  private readonly db: Database.Database;
  private readonly applyInOrder: (event: PlantEvent) => Outcome;

  constructor(path: string) {
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // UNIQUE (plant_id, version): one change of a plant under two event ids stops the apply.
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS applied_event (
        event_id TEXT PRIMARY KEY, plant_id TEXT NOT NULL, version INTEGER NOT NULL, UNIQUE (plant_id, version)
      );
      CREATE TABLE IF NOT EXISTS catalogue_plant (
        id TEXT PRIMARY KEY, name TEXT NULL, tag TEXT NULL, version INTEGER NOT NULL, deleted INTEGER NOT NULL
      );`);
    const applied = this.db.prepare('SELECT 1 FROM applied_event WHERE event_id = ?');
    const remember = this.db.prepare('INSERT INTO applied_event (event_id, plant_id, version) VALUES (?, ?, ?)');
    const stored = this.db.prepare('SELECT version, deleted FROM catalogue_plant WHERE id = ?');
    const upsert = this.db.prepare(
      `INSERT INTO catalogue_plant (id, name, tag, version, deleted) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, tag = excluded.tag,
          version = excluded.version, deleted = excluded.deleted`,
    );
    // better-sqlite3's transaction is synchronous: nothing else runs between its statements.
    this.applyInOrder = this.db.transaction((event: PlantEvent): Outcome => {
      if (applied.get(event.eventId) !== undefined) return 'duplicate';
      const plantId = event.plantId.toString();
      const plant = stored.get(plantId) as StoredPlant | undefined;
      const current = plant?.version ?? 0;
      if (event.version > current + 1) return 'early';
      // A version already applied, under another event id: the store never sends that.
      if (event.version <= current)
        throw new Error(`plant ${plantId} version ${event.version} arrived under a second event id ${event.eventId}`);
      if (plant?.deleted) throw new Error(`plant ${plantId} changed after its deletion (event ${event.eventId})`);
      remember.run(event.eventId, plantId, event.version);
      const json = event.toJSON();
      if (json.type === 'PlantDeleted') upsert.run(plantId, null, null, event.version, 1);
      else upsert.run(plantId, json.name, json.tag ?? null, event.version, 0);
      return 'applied';
    });
  }

  /** Applies the event if it is the next version of its plant (docs in README.md, "Applying events"). */
  apply(event: PlantEvent): Outcome {
    return this.applyInOrder(event);
  }

  /** The live plants, deleted ones left out. */
  plants(): CataloguePlant[] {
    return this.db
      .prepare('SELECT id, name, tag, version FROM catalogue_plant WHERE deleted = 0')
      .all() as CataloguePlant[];
  }

  /** How many live plants it holds. */
  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM catalogue_plant WHERE deleted = 0').get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }
}
