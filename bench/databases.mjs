// The database of each server under test, read from the side: a fresh PostgreSQL database or
// SQLite file per server, the rows it holds (by a connection of its own, so committed rows
// only), and the disk's own durable commit rate, which caps a server that commits each create.
import { createRequire } from 'node:module';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createPostgresDatabase, withPostgres } from '../test-support/postgres.mjs';
import { dropAtEnd } from './cleanup.mjs';
import { sleep } from './processes.mjs';
import { DATABASE_URL, ROOT, TMPFS } from './settings.mjs';

const persistenceRequire = createRequire(join(ROOT, 'packages/adapters-persistence/package.json'));

/** `fn` on a connection of its own, whose queries give up after a minute. */
const withPgClient = (url, fn) => withPostgres(url, fn, { queryTimeoutMs: 60_000 });

/** A new database on the DATABASE_URL server for `server`, dropped at the end of the run; its URL. */
export async function createPgDatabase(server) {
  const database = await createPostgresDatabase(DATABASE_URL, `plantstore_bench_${server}_`, {
    // The WAL lives in the cluster's own directory, so no tablespace moves the commit's flush off
    // the disk; not waiting for it is what leaves CPU alone, for this database only.
    settings: TMPFS ? { synchronous_commit: 'off' } : {},
  });
  return dropAtEnd(database).url;
}

/** The PostgreSQL server's version and durability settings, for the report's header. */
export function postgresSettings() {
  return withPgClient(DATABASE_URL, async (client) => {
    const get = async (name) => (await client.query(`SELECT current_setting('${name}') AS v`)).rows[0].v;
    return {
      version: await get('server_version'),
      synchronous_commit: await get('synchronous_commit'),
      fsync: await get('fsync'),
    };
  });
}

/** Rows in `table` (plant, or the outbox), read by a separate connection (committed rows only). */
export async function countRows(target, table = 'plant') {
  if (target.storesNothing) return 0;
  return queryNumber(target, `SELECT count(*) AS n FROM ${table}`);
}

/** The number in column `n` of the one row `sql` answers, read by a separate connection. */
export async function queryNumber(target, sql) {
  if (target.pgUrl) return withPgClient(target.pgUrl, async (client) => Number((await client.query(sql)).rows[0].n));
  const Database = persistenceRequire('better-sqlite3');
  const db = new Database(target.sqlitePath, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    return Number(db.prepare(sql).get().n);
  } finally {
    db.close();
  }
}

/**
 * Up to `limit` ids of live plants as decimal text (read by a separate connection); with
 * `anyRow`, of any row, for a build older than tombstones (before `deleted_at`).
 */
export async function storedIds(target, limit, { anyRow = false } = {}) {
  const live = anyRow ? '' : 'WHERE deleted_at IS NULL';
  const sql = `SELECT CAST(id AS TEXT) AS id FROM plant ${live} ORDER BY id LIMIT ${Number(limit)}`;
  if (target.pgUrl)
    return withPgClient(target.pgUrl, async (client) => (await client.query(sql)).rows.map((r) => r.id));
  const Database = persistenceRequire('better-sqlite3');
  const db = new Database(target.sqlitePath, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    return db
      .prepare(sql)
      .all()
      .map((r) => r.id);
  } finally {
    db.close();
  }
}

/** Waits until the row count stops moving (requests cut off at the end of a run may still commit). */
export const settledRowCount = (target) => settledNumber(() => countRows(target));

/** Waits until `read()` answers the same twice in a row, 200 ms apart (at most 5 s); its last answer. */
export async function settledNumber(read) {
  let last = await read();
  for (let stable = 0, i = 0; stable < 2 && i < 25; i++) {
    await sleep(200);
    const now = await read();
    stable = now === last ? stable + 1 : 0;
    last = now;
  }
  return last;
}

/** Calibration: how many durable single-row commits per second the disk takes right now. */
export function rawCommitRate(dir, seconds = 1) {
  const Database = persistenceRequire('better-sqlite3');
  const path = join(dir, 'calibration.sqlite');
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < seconds * 1000) insert.run(n++, 'x');
    return Math.round(n / ((performance.now() - start) / 1000));
  } finally {
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  }
}
