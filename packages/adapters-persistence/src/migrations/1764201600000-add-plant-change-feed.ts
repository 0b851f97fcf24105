import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change feed's positions, on the plant rows themselves (docs/storage.md#change-feed): each
 * row holds the position of its plant's last committed change, so the feed keeps one entry per
 * plant (a tombstone is a row) and nothing grows but the plants.
 *
 * SQLite: `feed_commit`, the write's commit number, which each write statement takes as one
 * more than the highest stored (writers take turns, so that is commit order); the rows stored
 * before get commit 1.
 *
 * PostgreSQL: `feed_xid`, the writing transaction's id, filled by the column's default on insert
 * and set again by every change, and `feed_epoch`, bumped at start-up when the database finds
 * itself in another cluster (feed-epoch.ts). `plant_feed` holds the current epoch and the
 * cluster it belongs to. The rows stored before get xid 1: final, below every position.
 */
export class AddPlantChangeFeed1764201600000 implements MigrationInterface {
  name = 'AddPlantChangeFeed1764201600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') await upOnPostgres(queryRunner);
    else await upOnSqlite(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX plant_feed_position');
    if (queryRunner.connection.driver.options.type === 'postgres') {
      await queryRunner.query('ALTER TABLE plant DROP COLUMN feed_epoch, DROP COLUMN feed_xid');
      await queryRunner.query('DROP TABLE plant_feed');
    } else {
      await queryRunner.query('ALTER TABLE plant DROP COLUMN feed_commit');
    }
  }
}

/** The 64-bit id of the writing transaction (it never wraps around, unlike the 32-bit xid). */
export const CURRENT_XID = 'CAST(CAST(pg_current_xact_id() AS text) AS bigint)';

async function upOnSqlite(queryRunner: QueryRunner): Promise<void> {
  // A constant default adds the column without rewriting the table.
  await queryRunner.query('ALTER TABLE plant ADD COLUMN feed_commit INTEGER NOT NULL DEFAULT 1');
  await queryRunner.query('CREATE INDEX plant_feed_position ON plant (feed_commit, id)');
}

async function upOnPostgres(queryRunner: QueryRunner): Promise<void> {
  // Constant defaults first, so the table is not rewritten; then the defaults new rows take.
  await queryRunner.query(
    'ALTER TABLE plant ADD COLUMN feed_epoch bigint NOT NULL DEFAULT 0, ADD COLUMN feed_xid bigint NOT NULL DEFAULT 1',
  );
  // bigint, not xid8: the same comparisons, and a type TypeORM's schema knows.
  await queryRunner.query(`ALTER TABLE plant ALTER COLUMN feed_xid SET DEFAULT ${CURRENT_XID}`);
  await queryRunner.query('CREATE INDEX plant_feed_position ON plant (feed_epoch, feed_xid, id)');
  await queryRunner.query(
    `CREATE TABLE plant_feed (
      id smallint PRIMARY KEY CHECK (id = 1),
      epoch bigint NOT NULL,
      cluster text NULL
    )`,
  );
  await queryRunner.query('INSERT INTO plant_feed (id, epoch, cluster) VALUES (1, 0, NULL)');
}
