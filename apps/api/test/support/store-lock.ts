import Database from 'better-sqlite3';
import { connectPostgres } from './engines.js';
import type { TestApp } from './test-app.js';

/**
 * Another client of the app's database takes an exclusive lock on the plants, as a
 * long-running migration or a stuck administrator session would, until `release` is called.
 * SQLite: a write transaction on another connection; PostgreSQL: LOCK TABLE from another session.
 */
export async function lockPlantsElsewhere(t: TestApp): Promise<{ release(): Promise<void> }> {
  if (t.engine === 'sqlite') {
    const other = new Database(t.databasePath);
    other.exec('BEGIN EXCLUSIVE');
    return {
      async release() {
        other.exec('ROLLBACK');
        other.close();
      },
    };
  }
  const other = await connectPostgres(t.database.url);
  await other.query('BEGIN');
  await other.query('LOCK TABLE plant IN ACCESS EXCLUSIVE MODE');
  return {
    async release() {
      await other.query('ROLLBACK');
      await other.end();
    },
  };
}
