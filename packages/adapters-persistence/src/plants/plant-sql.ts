import { plantNameKey, type PlantId, type PlantNameSearch } from '@plantstore/domain';
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
   * undefined), when `tags` is not empty a tag equal to one of them, and when `name` is given a
   * name whose key contains its key; ascending by id value.
   */
  selectPage(after: PlantId | undefined, limit: number, tags?: readonly string[], name?: PlantNameSearch): Statement;
  /**
   * Writes each change whose plant is live at its expected version, raising the version; the
   * result rows are `{ id }` (text) of those written. Ids must be distinct.
   */
  changeIfCurrent(rows: readonly PlantChangeRow[]): Statement;
}

/** Where a page of name matches is read: its tables, its condition, and the id it is ordered and cut by. */
interface NameSearchSql {
  readonly from: string;
  readonly condition: string;
  readonly id: string;
}

const PLAIN_PAGE = { from: 'plant', condition: undefined, id: 'plant.id' };

interface Dialect {
  placeholder(position: number): string;
  /**
   * The page's source and condition for a name key: through the engine's trigram index when
   * the key is long enough to have a trigram, else a scan in id order that stops at the page's
   * last match. The condition holds exactly when the stored key contains the key: the index
   * only narrows the rows that are tested.
   */
  nameSearch(key: string, bind: (value: unknown) => string): NameSearchSql;
  bindId(id: PlantId): unknown;
  /** The columns of a change, in CHANGE_COLUMNS' order, as one row of its VALUES. */
  changeTuple(first: number): string;
  /** `UPDATE plant … FROM <the changes>`, given the VALUES rows. */
  changeFrom(tuples: string): { readonly before: string; readonly from: string };
  /**
   * What an INSERT takes its rows from, given the VALUES rows (the first six columns of
   * INSERT_COLUMNS), and the change feed's stamp a change sets (docs/storage.md#change-feed).
   */
  insertSource(tuples: string): string;
  readonly feedChangeSet: string;
}

// Writers take turns on SQLite, so one more than the highest commit stored, read inside the
// write, is commit order (plant rows are never deleted: the highest never falls).
const SQLITE_NEXT_COMMIT = 'SELECT COALESCE(MAX(feed.feed_commit), 0) + 1 AS feed_commit FROM plant AS feed';

const INSERT_COLUMNS = 'id, name, name_key, tag, created_by_token_id, created_at';

const CHANGE_COLUMNS = 'id, expected, name, name_key, tag, changed_at, deleted_at, deleted_by';
// The changes' column types: PostgreSQL types a VALUES list by its rows, so each parameter is cast.
const CHANGE_COLUMN_TYPES = ['bigint', 'integer', 'text', 'text', 'text', 'timestamptz', 'timestamptz', 'varchar'];

/** A trigram index finds keys of 3 code points or more; a shorter one has no trigram to look up. */
const MIN_INDEXED_KEY = 3;

function indexable(key: string): boolean {
  // A code point is at most 2 UTF-16 units: a key this short in units cannot hold enough.
  return key.length >= MIN_INDEXED_KEY && Array.from(key).length >= MIN_INDEXED_KEY;
}

/** A LIKE pattern that holds `text` anywhere, its wildcards and the escape character taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** An FTS5 phrase: the text in double quotes, its own quotes doubled; the trigram tokenizer makes it a substring. */
function phrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

const DIALECTS: Record<Engine, Dialect> = {
  // better-sqlite3 binds a bigint as a 64-bit integer. SQLite names VALUES columns column1…,
  // so the changes are a common table expression with named columns.
  sqlite: {
    placeholder: () => '?',
    bindId: (id) => id.value,
    // plant_name_search (FTS5, trigram) holds each live plant's key under its id as rowid and
    // answers its matches in rowid order, so the page stops at its last match.
    nameSearch: (key, bind) =>
      indexable(key)
        ? {
            // CROSS JOIN keeps the index outside: its rowid order is the page's, its rowid the cursor.
            from: 'plant_name_search CROSS JOIN plant ON plant.id = plant_name_search.rowid',
            condition: `plant_name_search MATCH ${bind(phrase(key))} AND instr(plant.name_key, ${bind(key)}) > 0`,
            id: 'plant_name_search.rowid',
          }
        : { from: 'plant', condition: `instr(plant.name_key, ${bind(key)}) > 0`, id: 'plant.id' },
    changeTuple: () => `(${CHANGE_COLUMN_TYPES.map(() => '?').join(', ')})`,
    changeFrom: (tuples) => ({ before: `WITH change(${CHANGE_COLUMNS}) AS (VALUES ${tuples}) `, from: 'change' }),
    // The commit is read once per statement, joined to its rows: as a subquery in each VALUES
    // row, SQLite compiles and runs it once per row (an import's statement took ten times as
    // long). CROSS JOIN keeps the VALUES outermost, so rows are inserted in their order;
    // `WHERE true` is how SQLite tells an INSERT … SELECT's ON CONFLICT from a join's ON.
    insertSource: (tuples) =>
      `(${INSERT_COLUMNS}, feed_commit) SELECT fresh.column1, fresh.column2, fresh.column3, fresh.column4,
        fresh.column5, fresh.column6, next_commit.feed_commit
       FROM (VALUES ${tuples}) AS fresh CROSS JOIN (${SQLITE_NEXT_COMMIT}) AS next_commit WHERE true`,
    feedChangeSet: `, feed_commit = (${SQLITE_NEXT_COMMIT})`,
  },
  // node-postgres sends the decimal text, which the server reads as bigint.
  postgres: {
    placeholder: (position) => `$${position}`,
    bindId: (id) => id.toString(),
    // strpos never uses the trigram index: a scan by id (indexable keys take postgresSearchPage).
    nameSearch: (key, bind) => ({
      from: 'plant',
      condition: `strpos(plant.name_key, ${bind(key)}) > 0`,
      id: 'plant.id',
    }),
    changeTuple: (first) => `(${CHANGE_COLUMN_TYPES.map((type, column) => `$${first + column}::${type}`).join(', ')})`,
    changeFrom: (tuples) => ({ before: '', from: `(VALUES ${tuples}) AS change(${CHANGE_COLUMNS})` }),
    // An insert takes the columns' defaults (the epoch, and the writing transaction's id).
    insertSource: (tuples) => `(${INSERT_COLUMNS}) VALUES ${tuples}`,
    feedChangeSet: ', feed_epoch = DEFAULT, feed_xid = DEFAULT',
  },
};

// Read ids as text: both drivers would otherwise round values beyond 2^53 through Number.
// The text column is named id too, so conditions and order name the table's column, plant.id:
// ordered by the text, -9223372036854775808 would come after -1.
const PLANT_COLUMNS = `CAST(plant.id AS TEXT) AS id, plant.name AS name, plant.tag AS tag,
  plant.version AS version, plant.deleted_at AS deleted_at`;
const SELECT_PLANT = `SELECT ${PLANT_COLUMNS} FROM plant`;

const COLUMNS_PER_ROW = 6;
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
      return `(${Array.from({ length: COLUMNS_PER_ROW }, (_, column) => dialect.placeholder(first + column)).join(', ')})`;
    });
    const sql = `INSERT INTO plant ${dialect.insertSource(tuples.join(', '))}
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
    const sql = `${before}UPDATE plant SET name = change.name, name_key = change.name_key, tag = change.tag, version = plant.version + 1,
       changed_at = change.changed_at, deleted_at = change.deleted_at, deleted_by_token_id = change.deleted_by${dialect.feedChangeSet}
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
          row.name === null ? null : plantNameKey(row.name),
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
        parameters.push(
          dialect.bindId(row.id),
          row.name,
          plantNameKey(row.name),
          row.tag,
          row.createdByTokenId,
          row.createdAt,
        );
      return { sql: insertSql(rows.length), parameters };
    },
    selectByIds: (ids) =>
      statement(
        dialect,
        (bind) => `${SELECT_PLANT} WHERE plant.id IN (${ids.map((id) => bind(dialect.bindId(id))).join(', ')})`,
      ),
    selectPage: (after, limit, tags = [], name) =>
      statement(dialect, (bind) => {
        if (engine === 'postgres' && name !== undefined && indexable(name.key))
          return postgresSearchPage(
            bind,
            after === undefined ? undefined : dialect.bindId(after),
            limit,
            tags,
            name.key,
          );
        const search = name === undefined ? PLAIN_PAGE : dialect.nameSearch(name.key, bind);
        const conditions = [
          ...(search.condition === undefined ? [] : [search.condition]),
          'plant.deleted_at IS NULL',
          ...(after === undefined ? [] : [`${search.id} > ${bind(dialect.bindId(after))}`]),
          ...(tags.length === 0 ? [] : [`plant.tag IN (${tags.map((tag) => bind(tag)).join(', ')})`]),
        ];
        return `SELECT ${PLANT_COLUMNS} FROM ${search.from} WHERE ${conditions.join(' AND ')}
          ORDER BY ${search.id} ASC LIMIT ${bind(limit)}`;
      }),
  };
}

/** Plants read in id order before a PostgreSQL name search turns to its trigram index. */
const POSTGRES_SEARCH_HEAD = 10_000;

/**
 * A PostgreSQL page of plants whose key contains `key` (3 code points or more), in one
 * statement (one snapshot, so a walk stays exact). The planner cannot tell a common text from
 * a rare one (its estimate of a LIKE is a guess): left alone, it walks the table in id order
 * for a text found nowhere, or fetches every match of a common one through the index only to
 * sort them. So the statement does both, bounded: it first reads the next
 * POSTGRES_SEARCH_HEAD plants in id order and keeps the matches among them; only when they do
 * not fill the page (a rare text) does it ask the GIN index for the matches beyond them
 * (`OFFSET 0` keeps that part from being turned back into a walk in id order; the gating
 * conditions are evaluated once, before it runs).
 */
function postgresSearchPage(
  bind: (value: unknown) => string,
  after: unknown,
  limit: number,
  tags: readonly string[],
  key: string,
): string {
  const pattern = bind(containing(key));
  const wanted = bind(limit);
  const tagged = (table: string) =>
    tags.length === 0 ? '' : ` AND ${table}.tag IN (${tags.map((tag) => bind(tag)).join(', ')})`;
  return `WITH head AS MATERIALIZED (
      SELECT plant.id, plant.name_key, plant.tag, plant.deleted_at FROM plant
      ${after === undefined ? '' : `WHERE plant.id > ${bind(after)}`} ORDER BY plant.id LIMIT ${POSTGRES_SEARCH_HEAD}),
    head_matches AS MATERIALIZED (
      SELECT head.id FROM head
      WHERE head.name_key LIKE ${pattern} AND head.deleted_at IS NULL${tagged('head')}
      ORDER BY head.id LIMIT ${wanted}),
    matches AS (
      SELECT head_matches.id FROM head_matches
      UNION ALL
      SELECT later.id FROM (
        SELECT plant.id FROM plant
        WHERE plant.name_key LIKE ${pattern} AND plant.deleted_at IS NULL${tagged('plant')}
          AND plant.id > (SELECT max(head.id) FROM head)
        OFFSET 0) AS later
      WHERE (SELECT count(*) FROM head) = ${POSTGRES_SEARCH_HEAD} AND (SELECT count(*) FROM head_matches) < ${wanted})
    SELECT ${PLANT_COLUMNS} FROM matches JOIN plant ON plant.id = matches.id
    ORDER BY plant.id ASC LIMIT ${wanted}`;
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
