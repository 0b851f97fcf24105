import Database from 'better-sqlite3';
import type { PlantCreated } from '@plantstore/domain';

export interface CataloguePlant {
  readonly id: string;
  readonly name: string;
  readonly tag: string | null;
  readonly eventId: string;
}

/**
 * This app's own projection of the store's plants, in its own SQLite file. Each event is
 * applied at most once: the event id is recorded in the same transaction as its effect, so a
 * redelivered event (JetStream delivers at least once) changes nothing.
 */
export class PlantCatalogue {
  private readonly db: Database.Database;
  private readonly applyOnce: (event: PlantCreated) => boolean;

  constructor(path: string) {
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS applied_event (event_id TEXT PRIMARY KEY);
      CREATE TABLE IF NOT EXISTS catalogue_plant (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, tag TEXT NULL, created_at TEXT NOT NULL, event_id TEXT NOT NULL
      );`);
    const remember = this.db.prepare('INSERT OR IGNORE INTO applied_event (event_id) VALUES (?)');
    const insert = this.db.prepare(
      'INSERT INTO catalogue_plant (id, name, tag, created_at, event_id) VALUES (?, ?, ?, ?, ?)',
    );
    // better-sqlite3's transaction is synchronous: nothing else runs between its statements.
    this.applyOnce = this.db.transaction((event: PlantCreated) => {
      if (remember.run(event.eventId).changes === 0) return false;
      const { plantId, name, tag, createdAt, eventId } = event.toJSON();
      insert.run(plantId, name, tag ?? null, createdAt, eventId);
      return true;
    });
  }

  /** Applies the event unless it was applied before; answers whether it changed the catalogue. */
  apply(event: PlantCreated): boolean {
    return this.applyOnce(event);
  }

  plants(): CataloguePlant[] {
    return this.db.prepare('SELECT id, name, tag, event_id AS eventId FROM catalogue_plant').all() as CataloguePlant[];
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM catalogue_plant').get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }
}
