import { EntitySchema } from 'typeorm';
import type { Engine } from '../config/database-config.js';
import { COLUMN_TYPES } from './column-types.js';

/**
 * A plant as stored: the row shape, kept apart from the domain's Plant. The repository reads
 * and writes plants with plant-sql.ts (ids bound and read as text), never through this schema,
 * which describes the table to TypeORM as the migration creates it.
 */
export interface PlantRow {
  id: string;
  /** Null once the plant is deleted: its row is then its tombstone. */
  name: string | null;
  /** The name as a search compares it (the domain's plantNameKey); null with the name. */
  nameKey: string | null;
  tag: string | null;
  createdByTokenId: string | null;
  createdAt: Date | string;
  version: number;
  changedAt: Date | string | null;
  deletedAt: Date | string | null;
  deletedByTokenId: string | null;
  /** The change feed's position of the last change (docs/storage.md#change-feed), per engine. */
  feedCommit?: string;
  feedEpoch?: string;
  feedXid?: string;
}

function plantSchema(engine: Engine): EntitySchema<PlantRow> {
  return new EntitySchema<PlantRow>({
    name: 'Plant',
    tableName: 'plant',
    columns: {
      id: { type: COLUMN_TYPES[engine].plantId, primary: true },
      name: { type: 'text', nullable: true },
      nameKey: { name: 'name_key', type: 'text', nullable: true },
      tag: { type: 'text', nullable: true },
      createdByTokenId: { name: 'created_by_token_id', type: 'varchar', length: 64, nullable: true },
      createdAt: { name: 'created_at', type: COLUMN_TYPES[engine].instant },
      version: { type: 'integer', default: 1 },
      changedAt: { name: 'changed_at', type: COLUMN_TYPES[engine].instant, nullable: true },
      deletedAt: { name: 'deleted_at', type: COLUMN_TYPES[engine].instant, nullable: true },
      deletedByTokenId: { name: 'deleted_by_token_id', type: 'varchar', length: 64, nullable: true },
      ...(engine === 'sqlite'
        ? { feedCommit: { name: 'feed_commit', type: 'integer', default: 1 } }
        : {
            feedEpoch: { name: 'feed_epoch', type: 'bigint', default: 0 },
            feedXid: { name: 'feed_xid', type: 'bigint' },
          }),
    },
  });
}

export const PlantEntity: Record<Engine, EntitySchema<PlantRow>> = {
  sqlite: plantSchema('sqlite'),
  postgres: plantSchema('postgres'),
};
