import type { MigrationInterface, QueryRunner } from 'typeorm';
import { indexOnSqlite } from './1764288000000-add-plant-name-search.js';
import { runLongStatement } from './long-statement.js';

/**
 * SQLite only (PostgreSQL's GIN index stays as it is): the name index is kept in passes
 * instead of by triggers in every write's transaction (plants/sqlite-name-index.ts,
 * docs/storage.md#finding-plants-by-name). The FTS5 table is made again without positions
 * (detail=none: a search asks for each trigram of its text and checks the key itself) and
 * with deletion by rowid (contentless_delete=1: a pass forgets a plant's old key without
 * knowing it). It is filled with every live plant's key, and `plant_name_index` set to the
 * newest feed position: the index holds everything written up to it.
 */
export class IndexPlantNamesInPasses1764374400000 implements MigrationInterface {
  name = 'IndexPlantNamesInPasses1764374400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') return;
    await queryRunner.query('DROP TRIGGER plant_name_search_on_change');
    await queryRunner.query('DROP TRIGGER plant_name_search_on_create');
    await queryRunner.query('DROP TABLE plant_name_search');
    await queryRunner.query(
      `CREATE VIRTUAL TABLE plant_name_search USING fts5(name_key, content='', contentless_delete=1, detail=none,
        tokenize='trigram case_sensitive 1')`,
    );
    // Each pass adds a segment: merging them 16 at a time instead of 4 halved a pass's cost
    // (2.6 against 5.5 µs a plant on a 200,000-plant store), for a few more segments a search reads.
    await queryRunner.query(`INSERT INTO plant_name_search (plant_name_search, rank) VALUES ('automerge', 16)`);
    await queryRunner.query(
      `CREATE TABLE plant_name_index (
        id integer PRIMARY KEY CHECK (id = 1),
        feed_commit INTEGER NOT NULL,
        plant_id INTEGER NOT NULL
      )`,
    );
    // Below every position: the first pass starts at the first plant.
    await queryRunner.query('INSERT INTO plant_name_index (id, feed_commit, plant_id) VALUES (1, 0, 0)');
    await runLongStatement(
      queryRunner,
      'INSERT INTO plant_name_search (rowid, name_key) SELECT id, name_key FROM plant WHERE name_key IS NOT NULL',
    );
    await queryRunner.query(
      `UPDATE plant_name_index SET feed_commit = newest.feed_commit, plant_id = newest.id
        FROM (SELECT feed_commit, id FROM plant ORDER BY feed_commit DESC, id DESC LIMIT 1) AS newest
        WHERE plant_name_index.id = 1`,
    );
  }

  /** Back to the index kept by triggers, built from the keys stored. */
  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') return;
    await queryRunner.query('DROP TABLE plant_name_index');
    await queryRunner.query('DROP TABLE plant_name_search');
    await indexOnSqlite(queryRunner);
  }
}
