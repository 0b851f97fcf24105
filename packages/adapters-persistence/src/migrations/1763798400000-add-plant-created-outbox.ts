import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox of PlantCreated events (docs/storage.md#outbox). A trigger on plant writes one
 * outbox row per plant row actually inserted, inside the inserting statement: the group
 * commit's single `INSERT … ON CONFLICT DO NOTHING` stays one statement (nothing awaited in a
 * transaction, docs/storage.md#one-writer), a skipped row (replay, conflict) fires nothing, and
 * a plant can never be committed without its event nor an event without its plant.
 *
 * `seq` orders the outbox for the relay; `event_id` is a random UUID (v4) made by the database.
 * Plants stored before this migration get no event.
 */
export class AddPlantCreatedOutbox1763798400000 implements MigrationInterface {
  name = 'AddPlantCreatedOutbox1763798400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') {
      await queryRunner.query(
        `CREATE TABLE plant_outbox (
          seq bigserial PRIMARY KEY,
          event_id uuid NOT NULL DEFAULT gen_random_uuid(),
          plant_id bigint NOT NULL,
          name text NOT NULL,
          tag text NULL,
          created_at timestamptz NOT NULL
        )`,
      );
      // A statement-level trigger: one INSERT … SELECT per batch, not one per row.
      await queryRunner.query(
        `CREATE FUNCTION plant_created_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO plant_outbox (plant_id, name, tag, created_at)
            SELECT id, name, tag, created_at FROM inserted_plants ORDER BY id;
          RETURN NULL;
        END $$`,
      );
      await queryRunner.query(
        `CREATE TRIGGER plant_created_to_outbox AFTER INSERT ON plant
          REFERENCING NEW TABLE AS inserted_plants
          FOR EACH STATEMENT EXECUTE FUNCTION plant_created_to_outbox()`,
      );
      return;
    }
    // seq is the rowid: new rows always sort after the ones still waiting, which is all the
    // relay needs (no AUTOINCREMENT bookkeeping per row). No index on event_id: a random
    // 122-bit id does not repeat, and an index would be one more B-tree write per create.
    await queryRunner.query(
      `CREATE TABLE plant_outbox (
        seq INTEGER PRIMARY KEY,
        event_id text NOT NULL,
        plant_id INTEGER NOT NULL,
        name text NOT NULL,
        tag text NULL,
        created_at text NOT NULL
      )`,
    );
    // A version-4 UUID from one randomblob: 4 bits replaced by the version, 2 by the variant.
    await queryRunner.query(
      `CREATE TRIGGER plant_created_to_outbox AFTER INSERT ON plant
      BEGIN
        INSERT INTO plant_outbox (event_id, plant_id, name, tag, created_at)
        SELECT substr(r, 1, 8) || '-' || substr(r, 9, 4) || '-4' || substr(r, 14, 3) || '-' ||
          substr('89ab', 1 + (unicode(substr(r, 17, 1)) % 4), 1) || substr(r, 18, 3) || '-' || substr(r, 21, 12),
          NEW.id, NEW.name, NEW.tag, NEW.created_at
        FROM (SELECT lower(hex(randomblob(16))) AS r);
      END`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    await queryRunner.query(`DROP TRIGGER plant_created_to_outbox${postgres ? ' ON plant' : ''}`);
    if (postgres) await queryRunner.query('DROP FUNCTION plant_created_to_outbox()');
    await queryRunner.query('DROP TABLE plant_outbox');
  }
}
