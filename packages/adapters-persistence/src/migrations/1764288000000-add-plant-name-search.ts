import { plantNameKey } from '@plantstore/domain';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { runLongStatement } from './long-statement.js';

/** Plants keyed per statement while the keys of a store's plants are written (2 values each). */
const KEYS_PER_STATEMENT = 5000;

/**
 * Finding plants by name (docs/storage.md#finding-plants-by-name): each live plant row keeps
 * `name_key`, its name as a search compares it (plantNameKey, from the domain: the database
 * cannot fold case and accents the same way), written with the name by every create, change
 * and import, and cleared with it by a delete. An index of trigrams finds the keys that
 * contain a text:
 *
 * - PostgreSQL: a GIN index with pg_trgm's operator class. The migration creates the extension
 *   when it is missing, which takes a user allowed to (the database's owner, or one granted
 *   CREATE on it; pg_trgm is a trusted extension), or an operator who created it beforehand.
 * - SQLite: `plant_name_search`, an FTS5 table with the trigram tokenizer (contentless: it
 *   holds the index alone), whose rowid is the plant's id; triggers keep it in the statement
 *   that writes the key, so in its transaction.
 *
 * The keys of the plants already stored are written here, a batch at a time, before the index
 * is built over them in one go (a statement longer than any request's: long-statement.ts).
 */
export class AddPlantNameSearch1764288000000 implements MigrationInterface {
  name = 'AddPlantNameSearch1764288000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    if (postgres) await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await queryRunner.query('ALTER TABLE plant ADD COLUMN name_key text NULL');
    await writeKeys(queryRunner, postgres);
    if (postgres) await indexOnPostgres(queryRunner);
    else await indexOnSqlite(queryRunner);
  }

  /** Leaves pg_trgm installed: other tables of the database may use it. */
  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') {
      await queryRunner.query('DROP INDEX plant_name_key_trigrams');
    } else {
      await queryRunner.query('DROP TRIGGER plant_name_search_on_change');
      await queryRunner.query('DROP TRIGGER plant_name_search_on_create');
      await queryRunner.query('DROP TABLE plant_name_search');
    }
    await queryRunner.query('ALTER TABLE plant DROP COLUMN name_key');
  }
}

/** Keys of the live plants, by ascending id, as one UPDATE per batch. */
async function writeKeys(queryRunner: QueryRunner, postgres: boolean): Promise<void> {
  const bind = postgres ? (position: number) => `$${position}` : () => '?';
  let after: string | undefined;
  for (;;) {
    const rows = (await queryRunner.query(
      `SELECT CAST(id AS TEXT) AS id, name FROM plant WHERE name IS NOT NULL
        ${after === undefined ? '' : `AND id > ${bind(1)}`} ORDER BY id LIMIT ${KEYS_PER_STATEMENT}`,
      after === undefined ? [] : [postgres ? after : BigInt(after)],
    )) as Array<{ id: string; name: string }>;
    if (rows.length === 0) return;
    const parameters = rows.flatMap((row) => [postgres ? row.id : BigInt(row.id), plantNameKey(row.name)]);
    const tuples = rows.map((_, row) => (postgres ? `($${2 * row + 1}::bigint, $${2 * row + 2}::text)` : '(?, ?)'));
    await queryRunner.query(
      postgres
        ? `UPDATE plant SET name_key = keyed.name_key FROM (VALUES ${tuples.join(', ')}) AS keyed(id, name_key)
            WHERE plant.id = keyed.id`
        : `WITH keyed(id, name_key) AS (VALUES ${tuples.join(', ')})
            UPDATE plant SET name_key = keyed.name_key FROM keyed WHERE plant.id = keyed.id`,
      parameters,
    );
    after = rows[rows.length - 1]!.id;
  }
}

async function indexOnPostgres(queryRunner: QueryRunner): Promise<void> {
  await runLongStatement(
    queryRunner,
    'CREATE INDEX plant_name_key_trigrams ON plant USING gin (name_key gin_trgm_ops)',
  );
}

/** The index as this migration made it (kept by triggers); the next one's `down` makes it again. */
export async function indexOnSqlite(queryRunner: QueryRunner): Promise<void> {
  // Keys are folded already: the tokenizer compares them as they are. detail=full keeps the
  // positions a phrase of trigrams needs to be a substring; columnsize=0 spares a write per
  // row of what only ranking reads.
  await queryRunner.query(
    `CREATE VIRTUAL TABLE plant_name_search USING fts5(name_key, content='', columnsize=0, tokenize='trigram case_sensitive 1')`,
  );
  await runLongStatement(
    queryRunner,
    'INSERT INTO plant_name_search (rowid, name_key) SELECT id, name_key FROM plant WHERE name_key IS NOT NULL',
  );
  await queryRunner.query(
    `CREATE TRIGGER plant_name_search_on_create AFTER INSERT ON plant WHEN NEW.name_key IS NOT NULL
    BEGIN
      INSERT INTO plant_name_search (rowid, name_key) VALUES (NEW.id, NEW.name_key);
    END`,
  );
  // A contentless table forgets a row given the key it indexed; a change that keeps the key skips both.
  await queryRunner.query(
    `CREATE TRIGGER plant_name_search_on_change AFTER UPDATE OF name_key ON plant
      WHEN OLD.name_key IS NOT NEW.name_key
    BEGIN
      INSERT INTO plant_name_search (plant_name_search, rowid, name_key)
        SELECT 'delete', OLD.id, OLD.name_key WHERE OLD.name_key IS NOT NULL;
      INSERT INTO plant_name_search (rowid, name_key) SELECT NEW.id, NEW.name_key WHERE NEW.name_key IS NOT NULL;
    END`,
  );
}
