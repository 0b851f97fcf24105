import type { MigrationInterface, QueryRunner } from 'typeorm';
import { runLongStatement } from './long-statement.js';

/**
 * PostgreSQL only: live plants by tag, then id (docs/storage.md#reads). A list filtered by
 * tag walks one tag's plants in id order instead of every plant; a name search combined with
 * a tag intersects this index with the trigram index (a bitmap AND) instead of reading every
 * match of the name to test its tag. SQLite reads a tag-filtered search from its own index
 * fast enough, and there every index is a cost its one writer pays on each create.
 */
export class IndexLivePlantsByTag1764460800000 implements MigrationInterface {
  name = 'IndexLivePlantsByTag1764460800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type !== 'postgres') return;
    await runLongStatement(
      queryRunner,
      'CREATE INDEX plant_live_tag ON plant (tag, id) WHERE deleted_at IS NULL AND tag IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type !== 'postgres') return;
    await queryRunner.query('DROP INDEX plant_live_tag');
  }
}
