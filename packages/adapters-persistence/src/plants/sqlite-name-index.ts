import type { SqlRunner, Statement } from '../connection/sql-runner.js';

/**
 * SQLite's name index (docs/storage.md#finding-plants-by-name) is brought up to date in
 * passes, not in each write's transaction: FTS5 writes a segment of its index at every commit,
 * which cost a create on its own about 80 µs, more than half its whole cost in the server,
 * while a pass over a thousand rows costs about 3 µs a row. `plant_name_index` holds the feed
 * position (commit, id) up to which the index holds every plant's current key; a search reads
 * the index below it and the few plants changed after it directly (plant-sql.ts), so it is
 * exact whether or not a pass has run.
 */

/** Plants one pass indexes, in one transaction: a few milliseconds of the one connection. */
export const NAME_INDEX_ROWS_PER_PASS = 1000;

/**
 * The plants written after the position the index holds, as a condition on `plant` that reads
 * them through the feed's index (plant_feed_position): the commit bounds the range, the row
 * value orders the plants of one commit.
 */
export const WRITTEN_AFTER_INDEX = `plant.feed_commit >= (SELECT indexed.feed_commit FROM plant_name_index AS indexed WHERE indexed.id = 1)
  AND (plant.feed_commit, plant.id) > (SELECT indexed.feed_commit, indexed.plant_id FROM plant_name_index AS indexed WHERE indexed.id = 1)`;

/** The next plants in feed order after the position the index holds. */
const WINDOW = `SELECT plant.id AS id, plant.version AS version, plant.name_key AS name_key,
    plant.feed_commit AS feed_commit FROM plant
  WHERE ${WRITTEN_AFTER_INDEX}
  ORDER BY plant.feed_commit, plant.id LIMIT ?`;

/**
 * One pass, as statements of ONE transaction (the runner takes SQLite's write lock at BEGIN,
 * so the window cannot move between them): count the window, forget what the index holds for
 * its live plants that were written before (a plant at version 1 was created after the last
 * pass and is not in it), index the keys of the live ones, and move the position to its last
 * plant. A deleted plant's key stays in the index, as its tombstone stays in the table: its id
 * is never indexed again, a search's test of the key refuses it, and forgetting it by rowid
 * would cost about 13 µs, more than a tenth of a DELETE's whole cost.
 */
function passStatements(rows: number): Statement[] {
  return [
    { sql: `SELECT COUNT(*) AS n FROM (${WINDOW})`, parameters: [rows] },
    {
      sql: `DELETE FROM plant_name_search
        WHERE rowid IN (SELECT id FROM (${WINDOW}) WHERE version > 1 AND name_key IS NOT NULL)`,
      parameters: [rows],
    },
    {
      sql: `INSERT INTO plant_name_search (rowid, name_key)
        SELECT id, name_key FROM (${WINDOW}) WHERE name_key IS NOT NULL`,
      parameters: [rows],
    },
    {
      sql: `UPDATE plant_name_index SET feed_commit = last.feed_commit, plant_id = last.id
        FROM (SELECT feed_commit, id FROM (${WINDOW}) ORDER BY feed_commit DESC, id DESC LIMIT 1) AS last
        WHERE plant_name_index.id = 1`,
      parameters: [rows],
    },
  ];
}

const BEHIND: Statement = {
  sql: `SELECT 1 AS behind FROM plant WHERE ${WRITTEN_AFTER_INDEX} LIMIT 1`,
  parameters: [],
};

export class SqliteNameIndex {
  constructor(
    private readonly statements: SqlRunner,
    private readonly rowsPerPass = NAME_INDEX_ROWS_PER_PASS,
  ) {}

  /** Whether plants were written since the last pass (one indexed read; no lock taken). */
  async behind(): Promise<boolean> {
    return (await this.statements.run(BEHIND)).length > 0;
  }

  /** Indexes up to one pass of plants; the number indexed (fewer than a pass: it has caught up). */
  async pass(): Promise<number> {
    const [counted] = await this.statements.transaction(passStatements(this.rowsPerPass));
    return Number((counted as Array<{ n: number }>)[0]?.n ?? 0);
  }

  /** Passes until the index holds every plant written before the call (or `stopped` says so), one per event-loop turn. */
  async catchUp(stopped: () => boolean = () => false): Promise<void> {
    while (!stopped() && (await this.pass()) === this.rowsPerPass)
      await new Promise((resolve) => setImmediate(resolve));
  }
}

/** How often the server looks for plants written since the last pass (by it, or by another process such as an import). */
export const NAME_INDEX_PASS_INTERVAL_MS = 250;

/** Where a pass's failure is said: once when passes start failing, once when they succeed again. */
export interface NameIndexLog {
  warn(message: string): void;
}

/**
 * The server's passes: every NAME_INDEX_PASS_INTERVAL_MS, when plants were written since the
 * last one, passes until caught up. A pass that fails (the database locked by another process
 * for longer than the lock wait, a full disk) is tried again at the next interval; searches stay
 * exact meanwhile, reading more plants outside the index.
 */
export class NameIndexPasses {
  private readonly timer: NodeJS.Timeout;
  private running: Promise<void> | undefined;
  private stopped = false;
  private failing = false;

  constructor(
    private readonly index: SqliteNameIndex,
    private readonly log: NameIndexLog | undefined,
    private readonly intervalMs = NAME_INDEX_PASS_INTERVAL_MS,
  ) {
    this.timer = setInterval(() => {
      // run() never rejects: a failure is said and tried again.
      this.running ??= this.run().finally(() => (this.running = undefined));
    }, intervalMs);
    // The passes alone never keep a process alive.
    this.timer.unref();
  }

  /** No pass starts after this; resolves once the one under way, if any, has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async run(): Promise<void> {
    try {
      if (!(await this.index.behind())) return;
      await this.index.catchUp(() => this.stopped);
      if (this.failing) this.log?.warn('name index passes succeed again');
      this.failing = false;
    } catch (error) {
      if (!this.failing)
        this.log?.warn(`name index pass failed, tried again in ${this.intervalMs} ms: ${String(error)}`);
      this.failing = true;
    }
  }
}
