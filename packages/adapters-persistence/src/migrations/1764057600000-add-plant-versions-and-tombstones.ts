import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Plants that change and are deleted (docs/storage.md#tombstones): each plant row gets its
 * `version` (1 for every plant stored before), when it last changed, and, once deleted, its
 * tombstone: `deleted_at` and `deleted_by_token_id` set, name, tag and `changed_at` cleared, the
 * row kept for ever so that its id can never be used again (the primary key refuses it to every
 * create).
 *
 * The outbox carries every kind of event: `event_type`, the plant's `version`, and the time
 * the event happened (`occurred_at`, which was `created_at`); a deletion's event has no name.
 * A second trigger writes a PlantUpdated or PlantDeleted event for each row whose version a
 * statement raised, in that statement, with an id made there and never again.
 *
 * SQLite cannot drop a NOT NULL or add a CHECK in place: both tables are rebuilt and their rows
 * copied (seq kept, so the events waiting stay in order), then the triggers made again.
 */
export class AddPlantVersionsAndTombstones1764057600000 implements MigrationInterface {
  name = 'AddPlantVersionsAndTombstones1764057600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') await upOnPostgres(queryRunner);
    else await upOnSqlite(queryRunner);
  }

  /** Back to plants that cannot change: the tombstones and the events of changes are dropped with it. */
  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') await downOnPostgres(queryRunner);
    else await downOnSqlite(queryRunner);
  }
}

const EVENTS_ON = '(SELECT enabled FROM plant_events WHERE id = 1)';

/** A version-4 UUID from one randomblob, as the first outbox migration makes them. */
const SQLITE_EVENT_ID = `substr(r, 1, 8) || '-' || substr(r, 9, 4) || '-4' || substr(r, 14, 3) || '-' ||
  substr('89ab', 1 + (unicode(substr(r, 17, 1)) % 4), 1) || substr(r, 18, 3) || '-' || substr(r, 21, 12)`;

async function upOnSqlite(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(
    `CREATE TABLE plant_next (
      id INTEGER PRIMARY KEY,
      name text NULL,
      tag text NULL,
      created_by_token_id varchar(64) NULL REFERENCES api_token (id),
      created_at text NOT NULL,
      version integer NOT NULL DEFAULT 1,
      changed_at text NULL,
      deleted_at text NULL,
      deleted_by_token_id varchar(64) NULL REFERENCES api_token (id),
      CHECK ((deleted_at IS NULL) = (name IS NOT NULL))
    )`,
  );
  await queryRunner.query(
    `INSERT INTO plant_next (id, name, tag, created_by_token_id, created_at)
      SELECT id, name, tag, created_by_token_id, created_at FROM plant`,
  );
  // Its trigger goes with it.
  await queryRunner.query('DROP TABLE plant');
  await queryRunner.query('ALTER TABLE plant_next RENAME TO plant');
  await queryRunner.query(
    `CREATE TABLE plant_outbox_next (
      seq INTEGER PRIMARY KEY,
      event_id text NOT NULL,
      event_type text NOT NULL,
      plant_id INTEGER NOT NULL,
      version integer NOT NULL,
      name text NULL,
      tag text NULL,
      occurred_at text NOT NULL
    )`,
  );
  await queryRunner.query(
    `INSERT INTO plant_outbox_next (seq, event_id, event_type, plant_id, version, name, tag, occurred_at)
      SELECT seq, event_id, 'PlantCreated', plant_id, 1, name, tag, created_at FROM plant_outbox`,
  );
  await queryRunner.query('DROP TABLE plant_outbox');
  await queryRunner.query('ALTER TABLE plant_outbox_next RENAME TO plant_outbox');
  await queryRunner.query(
    `CREATE TRIGGER plant_created_to_outbox AFTER INSERT ON plant WHEN ${EVENTS_ON}
    BEGIN
      INSERT INTO plant_outbox (event_id, event_type, plant_id, version, name, tag, occurred_at)
      SELECT ${SQLITE_EVENT_ID}, 'PlantCreated', NEW.id, NEW.version, NEW.name, NEW.tag, NEW.created_at
      FROM (SELECT lower(hex(randomblob(16))) AS r);
    END`,
  );
  // Only a statement that raises the version changes a plant (sql-plant-changes.ts).
  await queryRunner.query(
    `CREATE TRIGGER plant_changed_to_outbox AFTER UPDATE OF version ON plant WHEN ${EVENTS_ON}
    BEGIN
      INSERT INTO plant_outbox (event_id, event_type, plant_id, version, name, tag, occurred_at)
      SELECT ${SQLITE_EVENT_ID}, CASE WHEN NEW.deleted_at IS NULL THEN 'PlantUpdated' ELSE 'PlantDeleted' END,
        NEW.id, NEW.version, NEW.name, NEW.tag, COALESCE(NEW.deleted_at, NEW.changed_at)
      FROM (SELECT lower(hex(randomblob(16))) AS r);
    END`,
  );
}

async function upOnPostgres(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(
    `ALTER TABLE plant
      ALTER COLUMN name DROP NOT NULL,
      ADD COLUMN version integer NOT NULL DEFAULT 1,
      ADD COLUMN changed_at timestamptz NULL,
      ADD COLUMN deleted_at timestamptz NULL,
      ADD COLUMN deleted_by_token_id varchar(64) NULL REFERENCES api_token (id),
      ADD CONSTRAINT plant_tombstone_has_no_content CHECK ((deleted_at IS NULL) = (name IS NOT NULL))`,
  );
  await queryRunner.query(
    `ALTER TABLE plant_outbox
      ALTER COLUMN name DROP NOT NULL,
      ADD COLUMN event_type text NOT NULL DEFAULT 'PlantCreated',
      ADD COLUMN version integer NOT NULL DEFAULT 1`,
  );
  await queryRunner.query(
    'ALTER TABLE plant_outbox ALTER COLUMN event_type DROP DEFAULT, ALTER COLUMN version DROP DEFAULT',
  );
  await queryRunner.query('ALTER TABLE plant_outbox RENAME COLUMN created_at TO occurred_at');
  await queryRunner.query(
    `CREATE OR REPLACE FUNCTION plant_created_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (SELECT enabled FROM plant_events WHERE id = 1) THEN
        INSERT INTO plant_outbox (event_type, plant_id, version, name, tag, occurred_at)
          SELECT 'PlantCreated', id, version, name, tag, created_at FROM inserted_plants ORDER BY id;
      END IF;
      RETURN NULL;
    END $$`,
  );
  // A statement-level trigger, as for creates: one INSERT … SELECT per batch of changes.
  await queryRunner.query(
    `CREATE FUNCTION plant_changed_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (SELECT enabled FROM plant_events WHERE id = 1) THEN
        INSERT INTO plant_outbox (event_type, plant_id, version, name, tag, occurred_at)
          SELECT CASE WHEN now_.deleted_at IS NULL THEN 'PlantUpdated' ELSE 'PlantDeleted' END,
            now_.id, now_.version, now_.name, now_.tag, COALESCE(now_.deleted_at, now_.changed_at)
          FROM changed_plants now_ JOIN previous_plants before_ ON before_.id = now_.id
          WHERE now_.version <> before_.version
          ORDER BY now_.id;
      END IF;
      RETURN NULL;
    END $$`,
  );
  await queryRunner.query(
    `CREATE TRIGGER plant_changed_to_outbox AFTER UPDATE ON plant
      REFERENCING OLD TABLE AS previous_plants NEW TABLE AS changed_plants
      FOR EACH STATEMENT EXECUTE FUNCTION plant_changed_to_outbox()`,
  );
}

async function downOnSqlite(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query('DROP TRIGGER plant_changed_to_outbox');
  await queryRunner.query(
    `CREATE TABLE plant_previous (
      id INTEGER PRIMARY KEY,
      name text NOT NULL,
      tag text NULL,
      created_by_token_id varchar(64) NULL REFERENCES api_token (id),
      created_at text NOT NULL
    )`,
  );
  await queryRunner.query(
    `INSERT INTO plant_previous (id, name, tag, created_by_token_id, created_at)
      SELECT id, name, tag, created_by_token_id, created_at FROM plant WHERE deleted_at IS NULL`,
  );
  await queryRunner.query('DROP TABLE plant');
  await queryRunner.query('ALTER TABLE plant_previous RENAME TO plant');
  await queryRunner.query(
    `CREATE TABLE plant_outbox_previous (
      seq INTEGER PRIMARY KEY,
      event_id text NOT NULL,
      plant_id INTEGER NOT NULL,
      name text NOT NULL,
      tag text NULL,
      created_at text NOT NULL
    )`,
  );
  await queryRunner.query(
    `INSERT INTO plant_outbox_previous (seq, event_id, plant_id, name, tag, created_at)
      SELECT seq, event_id, plant_id, name, tag, occurred_at FROM plant_outbox WHERE event_type = 'PlantCreated'`,
  );
  await queryRunner.query('DROP TABLE plant_outbox');
  await queryRunner.query('ALTER TABLE plant_outbox_previous RENAME TO plant_outbox');
  await queryRunner.query(
    `CREATE TRIGGER plant_created_to_outbox AFTER INSERT ON plant WHEN ${EVENTS_ON}
    BEGIN
      INSERT INTO plant_outbox (event_id, plant_id, name, tag, created_at)
      SELECT ${SQLITE_EVENT_ID}, NEW.id, NEW.name, NEW.tag, NEW.created_at
      FROM (SELECT lower(hex(randomblob(16))) AS r);
    END`,
  );
}

async function downOnPostgres(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query('DROP TRIGGER plant_changed_to_outbox ON plant');
  await queryRunner.query('DROP FUNCTION plant_changed_to_outbox()');
  await queryRunner.query("DELETE FROM plant_outbox WHERE event_type <> 'PlantCreated'");
  await queryRunner.query('DELETE FROM plant WHERE deleted_at IS NOT NULL');
  await queryRunner.query('ALTER TABLE plant_outbox RENAME COLUMN occurred_at TO created_at');
  await queryRunner.query(
    'ALTER TABLE plant_outbox DROP COLUMN event_type, DROP COLUMN version, ALTER COLUMN name SET NOT NULL',
  );
  await queryRunner.query(
    `ALTER TABLE plant DROP CONSTRAINT plant_tombstone_has_no_content,
      DROP COLUMN version, DROP COLUMN changed_at, DROP COLUMN deleted_at, DROP COLUMN deleted_by_token_id,
      ALTER COLUMN name SET NOT NULL`,
  );
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
}
