import { plantNameKey, type PlantId, type PlantNameSearch } from '@plantstore/domain';
import type { Engine } from '../config/database-config.js';
import type { Statement } from '../connection/sql-runner.js';
import { WRITTEN_AFTER_INDEX } from './sqlite-name-index.js';

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

interface Dialect {
  placeholder(position: number): string;
  /** Holds exactly when the stored key contains the key (the placeholder bound to it). */
  keyContains(key: string): string;
  /**
   * A page of plants whose key contains a key long enough to have a trigram, through the
   * engine's trigram index: the index only narrows the rows whose key is tested.
   */
  searchPage(page: SearchPage): string;
  bindId(id: PlantId): unknown;
  /** The columns of a change, in CHANGE_COLUMNS' order, as one row of its VALUES. */
  changeTuple(first: number): string;
  /** `UPDATE plant … FROM <the changes>`, given the VALUES rows. */
  changeFrom(tuples: string): { readonly before: string; readonly from: string };
  /**
   * An INSERT of the VALUES rows (INSERT_COLUMNS), with the change feed's stamp, up to its
   * ON CONFLICT; and the stamp a change sets (docs/storage.md#change-feed).
   */
  insertRows(tuples: string): string;
  readonly feedChangeSet: string;
}

// Writers take turns on SQLite, so one more than the highest commit stored, read inside the
// write, is commit order. Also above the position the name index holds (sqlite-name-index.ts),
// should plant rows ever be deleted by hand: a write below it would never be indexed.
const SQLITE_NEXT_COMMIT = `SELECT MAX(COALESCE(MAX(feed.feed_commit), 0),
    (SELECT indexed.feed_commit FROM plant_name_index AS indexed WHERE indexed.id = 1)) + 1 AS feed_commit
  FROM plant AS feed`;

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

/** What a search page's statement is made of: its values bound, its conditions written. */
interface SearchPage {
  readonly bind: (value: unknown) => string;
  /** The bound id after which the page starts, if any. */
  readonly after: unknown;
  readonly limit: number;
  readonly tags: readonly string[];
  readonly key: string;
}

/** At most this many of a text's trigrams are looked up; the key's own test does the rest. */
const MAX_TRIGRAMS_LOOKED_UP = 16;

/**
 * An FTS5 query for the rows indexed under every trigram of `text` (up to
 * MAX_TRIGRAMS_LOOKED_UP), each a string in double quotes, its own quotes doubled. The index
 * keeps no positions, so these are the rows that may contain the text, not those that do.
 */
function everyTrigramOf(text: string): string {
  const points = Array.from(text);
  const trigrams = new Set<string>();
  for (let at = 0; at + 3 <= points.length && trigrams.size < MAX_TRIGRAMS_LOOKED_UP; at++)
    trigrams.add(points.slice(at, at + 3).join(''));
  return [...trigrams].map((trigram) => `"${trigram.replaceAll('"', '""')}"`).join(' AND ');
}

const DIALECTS: Record<Engine, Dialect> = {
  // better-sqlite3 binds a bigint as a 64-bit integer. SQLite names VALUES columns column1…,
  // so the changes are a common table expression with named columns.
  sqlite: {
    placeholder: () => '?',
    bindId: (id) => id.value,
    keyContains: (key) => `instr(plant.name_key, ${key}) > 0`,
    searchPage: sqliteSearchPage,
    changeTuple: () => `(${CHANGE_COLUMN_TYPES.map(() => '?').join(', ')})`,
    changeFrom: (tuples) => ({ before: `WITH change(${CHANGE_COLUMNS}) AS (VALUES ${tuples}) `, from: 'change' }),
    // The commit is read once per statement, in a materialized CTE joined to the rows. As a
    // subquery in each VALUES row SQLite compiles and runs it per row (a 1000-row import
    // statement took ten times as long); as a subquery in FROM it is flattened into the join
    // and read the whole table per insert. CROSS JOIN keeps the VALUES outermost, so rows are
    // inserted in their order; `WHERE true` is how SQLite tells an INSERT … SELECT's ON
    // CONFLICT from a join's ON.
    insertRows: (tuples) =>
      `WITH next_commit AS MATERIALIZED (${SQLITE_NEXT_COMMIT})
       INSERT INTO plant (${INSERT_COLUMNS}, feed_commit)
       SELECT fresh.column1, fresh.column2, fresh.column3, fresh.column4, fresh.column5, fresh.column6,
         next_commit.feed_commit
       FROM (VALUES ${tuples}) AS fresh CROSS JOIN next_commit WHERE true`,
    feedChangeSet: `, feed_commit = (${SQLITE_NEXT_COMMIT})`,
  },
  // node-postgres sends the decimal text, which the server reads as bigint.
  postgres: {
    placeholder: (position) => `$${position}`,
    bindId: (id) => id.toString(),
    // strpos never uses the trigram index: a scan in id order.
    keyContains: (key) => `strpos(plant.name_key, ${key}) > 0`,
    searchPage: postgresSearchPage,
    changeTuple: (first) => `(${CHANGE_COLUMN_TYPES.map((type, column) => `$${first + column}::${type}`).join(', ')})`,
    changeFrom: (tuples) => ({ before: '', from: `(VALUES ${tuples}) AS change(${CHANGE_COLUMNS})` }),
    // An insert takes the columns' defaults (the epoch, and the writing transaction's id).
    insertRows: (tuples) => `INSERT INTO plant (${INSERT_COLUMNS}) VALUES ${tuples}`,
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
    const sql = `${dialect.insertRows(tuples.join(', '))}
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
        const from = after === undefined ? undefined : dialect.bindId(after);
        if (name !== undefined && indexable(name.key))
          return dialect.searchPage({ bind, after: from, limit, tags, key: name.key });
        // Without a trigram to look up, a scan in id order that stops at the page's last match.
        const conditions = [
          ...(name === undefined ? [] : [dialect.keyContains(bind(name.key))]),
          'plant.deleted_at IS NULL',
          ...(from === undefined ? [] : [`plant.id > ${bind(from)}`]),
          ...(tags.length === 0 ? [] : [`plant.tag IN (${tags.map((tag) => bind(tag)).join(', ')})`]),
        ];
        return `SELECT ${PLANT_COLUMNS} FROM plant WHERE ${conditions.join(' AND ')}
          ORDER BY plant.id ASC LIMIT ${bind(limit)}`;
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
function postgresSearchPage({ bind, after, limit, tags, key }: SearchPage): string {
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

/**
 * A SQLite page of plants whose key contains `key` (3 code points or more), in one statement
 * (one snapshot). The trigram index holds the keys up to the feed position in
 * `plant_name_index` (sqlite-name-index.ts), so the page is the first matches of two parts:
 * the indexed plants, read in rowid order through the index so that it stops at the page's
 * last match (CROSS JOIN keeps the index outside), and the plants written after that position,
 * few, read through the feed's index. Each plant's key is tested as it is now, so a plant the
 * index still holds under an old name is not found by it. `?` placeholders are numbered by
 * their place in the text: values are bound in the order they appear.
 */
function sqliteSearchPage({ bind, after, limit, tags, key }: SearchPage): string {
  const matching = (id: string) =>
    [
      `instr(plant.name_key, ${bind(key)}) > 0`,
      'plant.deleted_at IS NULL',
      ...(tags.length === 0 ? [] : [`plant.tag IN (${tags.map((tag) => bind(tag)).join(', ')})`]),
      ...(after === undefined ? [] : [`${id} > ${bind(after)}`]),
    ].join(' AND ');
  const indexed = `SELECT plant_name_search.rowid AS id
      FROM plant_name_search CROSS JOIN plant ON plant.id = plant_name_search.rowid
      WHERE plant_name_search MATCH ${bind(everyTrigramOf(key))} AND ${matching('plant_name_search.rowid')}
      ORDER BY plant_name_search.rowid LIMIT ${bind(limit)}`;
  // INDEXED BY: ordered by id, the planner would walk the whole table rather than the few plants after the index.
  const unindexed = `SELECT plant.id AS id FROM plant INDEXED BY plant_feed_position
      WHERE ${WRITTEN_AFTER_INDEX} AND ${matching('plant.id')}
      ORDER BY plant.id LIMIT ${bind(limit)}`;
  return `SELECT ${PLANT_COLUMNS} FROM plant
    WHERE plant.id IN (SELECT id FROM (${indexed}) UNION ALL SELECT id FROM (${unindexed}))
    ORDER BY plant.id ASC LIMIT ${bind(limit)}`;
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
