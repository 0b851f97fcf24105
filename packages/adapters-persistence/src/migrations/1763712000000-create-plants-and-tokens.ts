import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One history for both engines. The only differences are the id column (SQLite's
 * INTEGER PRIMARY KEY is its 64-bit rowid; PostgreSQL's bigint) and timestamps
 * (ISO-8601 text on SQLite, timestamptz on PostgreSQL).
 */
export class CreatePlantsAndTokens1763712000000 implements MigrationInterface {
  name = 'CreatePlantsAndTokens1763712000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'text';
    const plantId = postgres ? 'bigint PRIMARY KEY' : 'INTEGER PRIMARY KEY';
    await queryRunner.query(
      `CREATE TABLE api_token (
        id varchar(64) PRIMARY KEY,
        name varchar(400) NOT NULL,
        token_hash varchar(64) NOT NULL UNIQUE,
        scopes varchar(200) NOT NULL,
        created_at ${timestamp} NOT NULL,
        expires_at ${timestamp} NULL,
        revoked_at ${timestamp} NULL
      )`,
    );
    await queryRunner.query(
      `CREATE TABLE plant (
        id ${plantId},
        name text NOT NULL,
        tag text NULL,
        created_by_token_id varchar(64) NULL REFERENCES api_token (id),
        created_at ${timestamp} NOT NULL
      )`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE plant');
    await queryRunner.query('DROP TABLE api_token');
  }
}
