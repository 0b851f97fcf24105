import type { PlantId } from '@plantstore/domain';
import type { Engine } from '../config/database-config.js';
import type { Statement } from '../connection/sql-runner.js';

/** A plant row to insert, as the plant table takes it. */
export interface NewPlantRow {
  readonly id: PlantId;
  readonly name: string;
  readonly tag: string | null;
  readonly createdByTokenId: string | null;
  /** ISO-8601; PostgreSQL casts it to timestamptz, SQLite keeps the text. */
  readonly createdAt: string;
}

/**
 * A change to write over a live plant at `expectedVersion`: new content (name and tag), or its
 * deletion (`deletedAt` set, name and tag null), either at `changedAt`.
 */
export interface PlantChangeRow {
  readonly id: PlantId;
  readonly expectedVersion: number;
  readonly name: string | null;
  readonly tag: string | null;
  /** ISO-8601, as createdAt; null for a deletion, whose time is `deletedAt`. */
  readonly changedAt: string | null;
  readonly deletedAt: string | null;
  readonly deletedByTokenId: string | null;
}

/**
 * What the SELECTs below return: the id as decimal text, so no driver reads it through Number.
 * A deleted plant's row is its tombstone: no name, no tag, `deleted_at` set.
 */
export interface StoredPlantRow {
  readonly id: string;
  readonly name: string | null;
  readonly tag: string | null;
  readonly version: number | string;
  readonly deleted_at: string | Date | null;
}

/**
 * The plant table's statements in one engine's dialect. Raw SQL on purpose: TypeORM's insert
 * builder has no portable ON CONFLICT … RETURNING, and on SQLite it writes numeric ids into the
 * SQL text instead of binding them. Ids are always bound as parameters and read back as text.
 */
export interface PlantSql {
  /** Inserts the rows whose id is free; the result rows are `{ id }` (text) of those inserted, in no set order. */
  insertIfAbsent(rows: readonly NewPlantRow[]): Statement;
  /** The stored rows among `ids` (at least one), tombstones included, in no set order. */
  selectByIds(ids: readonly PlantId[]): Statement;
  /**
   * Keyset page: up to `limit` live plants with an id above `after` (from the lowest when
   * undefined) and, when `tags` is not empty, a tag equal to one of them; ascending by id value.
   */
  selectPage(after: PlantId | undefined, limit: number, tags?: readonly string[]): Statement;
  /**
   * Writes each change whose plant is live at its expected version, raising the version; the
   * result rows are `{ id }` (text) of those written. Ids must be distinct.
   */
  changeIfCurrent(rows: readonly PlantChangeRow[]): Statement;
}

interface Dialect {
  placeholder(position: number): string;
  bindId(id: PlantId): unknown;
  /** The columns of a change, in CHANGE_COLUMNS' order, as one row of its VALUES. */
  changeTuple(first: number): string;
  /** `UPDATE plant … FROM <the changes>`, given the VALUES rows. */
  changeFrom(tuples: string): { readonly before: string; readonly from: string };
  /** The change feed's stamp on each row a write inserts or changes (docs/storage.md#change-feed). */
  readonly feed: { readonly insertColumn: string; readonly insertValue: string; readonly changeSet: string };
}

// Writers take turns on SQLite, so one more than the highest commit stored, read inside the
// write, is commit order (plant rows are never deleted: the highest never falls).
const SQLITE_NEXT_COMMIT = '(SELECT COALESCE(MAX(feed.feed_commit), 0) + 1 FROM plant AS feed)';

const CHANGE_COLUMNS = 'id, expected, name, tag, changed_at, deleted_at, deleted_by';
// The changes' column types: PostgreSQL types a VALUES list by its rows, so each parameter is cast.
const CHANGE_COLUMN_TYPES = ['bigint', 'integer', 'text', 'text', 'timestamptz', 'timestamptz', 'varchar'];

const DIALECTS: Record<Engine, Dialect> = {
  // better-sqlite3 binds a bigint as a 64-bit integer. SQLite names VALUES columns column1…,
  // so the changes are a common table expression with named columns.
  sqlite: {
    placeholder: () => '?',
    bindId: (id) => id.value,
    changeTuple: () => `(${CHANGE_COLUMN_TYPES.map(() => '?').join(', ')})`,
    changeFrom: (tuples) => ({ before: `WITH change(${CHANGE_COLUMNS}) AS (VALUES ${tuples}) `, from: 'change' }),
    feed: {
      insertColumn: ', feed_commit',
      insertValue: `, ${SQLITE_NEXT_COMMIT}`,
      changeSet: `, feed_commit = ${SQLITE_NEXT_COMMIT}`,
    },
  },
  // node-postgres sends the decimal text, which the server reads as bigint.
  postgres: {
    placeholder: (position) => `$${position}`,
    bindId: (id) => id.toString(),
    changeTuple: (first) => `(${CHANGE_COLUMN_TYPES.map((type, column) => `$${first + column}::${type}`).join(', ')})`,
    changeFrom: (tuples) => ({ before: '', from: `(VALUES ${tuples}) AS change(${CHANGE_COLUMNS})` }),
    // An insert takes the columns' defaults (the epoch, and the writing transaction's id).
    feed: { insertColumn: '', insertValue: '', changeSet: ', feed_epoch = DEFAULT, feed_xid = DEFAULT' },
  },
};

// Read ids as text: both drivers would otherwise round values beyond 2^53 through Number.
// The text column is named id too, so conditions and order name the table's column, plant.id:
// ordered by the text, -9223372036854775808 would come after -1.
const SELECT_PLANT = `SELECT CAST(plant.id AS TEXT) AS id, plant.name AS name, plant.tag AS tag,
  plant.version AS version, plant.deleted_at AS deleted_at FROM plant`;

const COLUMNS_PER_ROW = 5;
const COLUMNS_PER_CHANGE = CHANGE_COLUMN_TYPES.length;

/**
 * `keepStatementsUpTo`: the INSERT (and UPDATE) texts of up to this many rows, one per row count, are kept
 * (a group commit's batches; bounded by the repository's batch size, with PostgreSQL's longer
 * placeholders). The same string each time spares building it and the driver's statement
 * cache hashing a new one per batch. Larger inserts (an import's) are built each time.
 */
export function plantSqlFor(engine: Engine, keepStatementsUpTo = 0): PlantSql {
  const dialect = DIALECTS[engine];
  const keptInserts = new Map<number, string>();
  const insertSql = (rowCount: number): string => {
    const kept = keptInserts.get(rowCount);
    if (kept !== undefined) return kept;
    const tuples = Array.from({ length: rowCount }, (_, row) => {
      const first = row * COLUMNS_PER_ROW + 1;
      return `(${Array.from({ length: COLUMNS_PER_ROW }, (_, column) => dialect.placeholder(first + column)).join(', ')}${dialect.feed.insertValue})`;
    });
    const sql = `INSERT INTO plant (id, name, tag, created_by_token_id, created_at${dialect.feed.insertColumn}) VALUES ${tuples.join(', ')}
       ON CONFLICT (id) DO NOTHING RETURNING CAST(id AS TEXT) AS id`;
    if (rowCount <= keepStatementsUpTo) keptInserts.set(rowCount, sql);
    return sql;
  };
  const keptChanges = new Map<number, string>();
  const changeSql = (rowCount: number): string => {
    const kept = keptChanges.get(rowCount);
    if (kept !== undefined) return kept;
    const tuples = Array.from({ length: rowCount }, (_, row) => dialect.changeTuple(row * COLUMNS_PER_CHANGE + 1));
    const { before, from } = dialect.changeFrom(tuples.join(', '));
    const sql = `${before}UPDATE plant SET name = change.name, tag = change.tag, version = plant.version + 1,
       changed_at = change.changed_at, deleted_at = change.deleted_at, deleted_by_token_id = change.deleted_by${dialect.feed.changeSet}
       FROM ${from}
       WHERE plant.id = change.id AND plant.version = change.expected AND plant.deleted_at IS NULL
       RETURNING CAST(plant.id AS TEXT) AS id`;
    if (rowCount <= keepStatementsUpTo) keptChanges.set(rowCount, sql);
    return sql;
  };
  return {
    changeIfCurrent: (rows) => {
      const parameters: unknown[] = [];
      for (const row of rows)
        parameters.push(
          dialect.bindId(row.id),
          row.expectedVersion,
          row.name,
          row.tag,
          row.changedAt,
          row.deletedAt,
          row.deletedByTokenId,
        );
      return { sql: changeSql(rows.length), parameters };
    },
    insertIfAbsent: (rows) => {
      const parameters: unknown[] = [];
      for (const row of rows)
        parameters.push(dialect.bindId(row.id), row.name, row.tag, row.createdByTokenId, row.createdAt);
      return { sql: insertSql(rows.length), parameters };
    },
    selectByIds: (ids) =>
      statement(
        dialect,
        (bind) => `${SELECT_PLANT} WHERE plant.id IN (${ids.map((id) => bind(dialect.bindId(id))).join(', ')})`,
      ),
    selectPage: (after, limit, tags = []) =>
      statement(dialect, (bind) => {
        const conditions = [
          'plant.deleted_at IS NULL',
          ...(after === undefined ? [] : [`plant.id > ${bind(dialect.bindId(after))}`]),
          ...(tags.length === 0 ? [] : [`plant.tag IN (${tags.map((tag) => bind(tag)).join(', ')})`]),
        ];
        return `${SELECT_PLANT} WHERE ${conditions.join(' AND ')} ORDER BY plant.id ASC LIMIT ${bind(limit)}`;
      }),
  };
}

/** Builds SQL whose values are bound in order: `bind(value)` records the value and answers its placeholder. */
function statement(dialect: Dialect, build: (bind: (value: unknown) => string) => string): Statement {
  const parameters: unknown[] = [];
  const sql = build((value) => {
    parameters.push(value);
    return dialect.placeholder(parameters.length);
  });
  return { sql, parameters };
}
