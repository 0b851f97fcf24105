import type { PlantId } from '@plantstore/domain';
import type { Engine } from './database-config.js';

/** One statement with its parameters, ready for `DataSource.query`. */
export interface Statement {
  readonly sql: string;
  readonly parameters: unknown[];
}

/** A plant row to insert, as the plant table takes it. */
export interface NewPlantRow {
  readonly id: PlantId;
  readonly name: string;
  readonly tag: string | null;
  readonly createdByTokenId: string | null;
  /** ISO-8601; PostgreSQL casts it to timestamptz, SQLite keeps the text. */
  readonly createdAt: string;
}

/** What the SELECTs below return: the id as decimal text, so no driver reads it through Number. */
export interface StoredPlantRow {
  readonly id: string;
  readonly name: string;
  readonly tag: string | null;
}

/**
 * The plant table's statements in one engine's dialect. Raw SQL on purpose: TypeORM's insert
 * builder has no portable ON CONFLICT … RETURNING, and on SQLite it writes numeric ids into the
 * SQL text instead of binding them. Ids are always bound as parameters and read back as text.
 */
export interface PlantSql {
  /** Inserts the rows whose id is free; the result rows are `{ id }` (text) of those inserted, in no set order. */
  insertIfAbsent(rows: readonly NewPlantRow[]): Statement;
  /** The stored rows among `ids` (at least one), in no set order. */
  selectByIds(ids: readonly PlantId[]): Statement;
  /**
   * Keyset page: up to `limit` rows with an id above `after` (from the lowest when undefined)
   * and, when `tags` is not empty, a tag equal to one of them; ascending by id value.
   */
  selectPage(after: PlantId | undefined, limit: number, tags?: readonly string[]): Statement;
}

interface Dialect {
  placeholder(position: number): string;
  bindId(id: PlantId): unknown;
}

const DIALECTS: Record<Engine, Dialect> = {
  // better-sqlite3 binds a bigint as a 64-bit integer.
  sqlite: { placeholder: () => '?', bindId: (id) => id.value },
  // node-postgres sends the decimal text, which the server reads as bigint.
  postgres: { placeholder: (position) => `$${position}`, bindId: (id) => id.toString() },
};

// Read ids as text: both drivers would otherwise round values beyond 2^53 through Number.
// The text column is named id too, so conditions and order name the table's column, plant.id:
// ordered by the text, -9223372036854775808 would come after -1.
const SELECT_PLANT = 'SELECT CAST(plant.id AS TEXT) AS id, plant.name AS name, plant.tag AS tag FROM plant';

const COLUMNS_PER_ROW = 5;

/**
 * `keepInsertsUpTo`: the INSERT texts of up to this many rows, one per row count, are kept
 * (a group commit's batches; bounded by the repository's batch size, with PostgreSQL's longer
 * placeholders). The same string each time spares building it and the driver's statement
 * cache hashing a new one per batch. Larger inserts (an import's) are built each time.
 */
export function plantSqlFor(engine: Engine, keepInsertsUpTo = 0): PlantSql {
  const dialect = DIALECTS[engine];
  const keptInserts = new Map<number, string>();
  const insertSql = (rowCount: number): string => {
    const kept = keptInserts.get(rowCount);
    if (kept !== undefined) return kept;
    const tuples = Array.from({ length: rowCount }, (_, row) => {
      const first = row * COLUMNS_PER_ROW + 1;
      return `(${Array.from({ length: COLUMNS_PER_ROW }, (_, column) => dialect.placeholder(first + column)).join(', ')})`;
    });
    const sql = `INSERT INTO plant (id, name, tag, created_by_token_id, created_at) VALUES ${tuples.join(', ')}
       ON CONFLICT (id) DO NOTHING RETURNING CAST(id AS TEXT) AS id`;
    if (rowCount <= keepInsertsUpTo) keptInserts.set(rowCount, sql);
    return sql;
  };
  return {
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
          ...(after === undefined ? [] : [`plant.id > ${bind(dialect.bindId(after))}`]),
          ...(tags.length === 0 ? [] : [`plant.tag IN (${tags.map((tag) => bind(tag)).join(', ')})`]),
        ];
        const where = conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`;
        return `${SELECT_PLANT}${where} ORDER BY plant.id ASC LIMIT ${bind(limit)}`;
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
