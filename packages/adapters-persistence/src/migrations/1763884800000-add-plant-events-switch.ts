import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The PlantCreated events switch (docs/storage.md#outbox): the outbox trigger writes an event
 * only while `plant_events.enabled` is true, so a store whose events nobody relays does not keep
 * a second copy of every plant. A new store starts with events off; a store that already holds
 * plants keeps them on, as before this migration (`plantstore events disable` turns them off).
 */
export class AddPlantEventsSwitch1763884800000 implements MigrationInterface {
  name = 'AddPlantEventsSwitch1763884800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    await queryRunner.query(
      `CREATE TABLE plant_events (
        id integer PRIMARY KEY CHECK (id = 1),
        enabled boolean NOT NULL
      )`,
    );
    await queryRunner.query('INSERT INTO plant_events (id, enabled) SELECT 1, EXISTS (SELECT 1 FROM plant)');
    if (postgres) {
      // Checked once per statement: a batch of a thousand plants pays for one lookup.
      await queryRunner.query(
        `CREATE OR REPLACE FUNCTION plant_created_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF (SELECT enabled FROM plant_events WHERE id = 1) THEN
            INSERT INTO plant_outbox (plant_id, name, tag, created_at)
              SELECT id, name, tag, created_at FROM inserted_plants ORDER BY id;
          END IF;
          RETURN NULL;
        END $$`,
      );
      return;
    }
    await queryRunner.query('DROP TRIGGER plant_created_to_outbox');
    await queryRunner.query(sqliteTrigger('WHEN (SELECT enabled FROM plant_events WHERE id = 1)'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') {
      await queryRunner.query(
        `CREATE OR REPLACE FUNCTION plant_created_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO plant_outbox (plant_id, name, tag, created_at)
            SELECT id, name, tag, created_at FROM inserted_plants ORDER BY id;
          RETURN NULL;
        END $$`,
      );
    } else {
      await queryRunner.query('DROP TRIGGER plant_created_to_outbox');
      await queryRunner.query(sqliteTrigger(''));
    }
    await queryRunner.query('DROP TABLE plant_events');
  }
}

/** The SQLite outbox trigger of AddPlantCreatedOutbox1763798400000, with an optional WHEN clause. */
function sqliteTrigger(when: string): string {
  return `CREATE TRIGGER plant_created_to_outbox AFTER INSERT ON plant ${when}
    BEGIN
      INSERT INTO plant_outbox (event_id, plant_id, name, tag, created_at)
      SELECT substr(r, 1, 8) || '-' || substr(r, 9, 4) || '-4' || substr(r, 14, 3) || '-' ||
        substr('89ab', 1 + (unicode(substr(r, 17, 1)) % 4), 1) || substr(r, 18, 3) || '-' || substr(r, 21, 12),
        NEW.id, NEW.name, NEW.tag, NEW.created_at
      FROM (SELECT lower(hex(randomblob(16))) AS r);
    END`;
}
