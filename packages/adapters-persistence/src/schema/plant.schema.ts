import { EntitySchema } from 'typeorm';
import type { Engine } from '../database-config.js';
import { COLUMN_TYPES } from './column-types.js';

/**
 * A plant as stored: the row shape, kept apart from the domain's Plant. The repository reads
 * and writes plants with plant-sql.ts (ids bound and read as text), never through this schema,
 * which describes the table to TypeORM as the migration creates it.
 */
export interface PlantRow {
  id: string;
  name: string;
  tag: string | null;
  createdByTokenId: string | null;
  createdAt: Date | string;
}

function plantSchema(engine: Engine): EntitySchema<PlantRow> {
  return new EntitySchema<PlantRow>({
    name: 'Plant',
    tableName: 'plant',
    columns: {
      id: { type: COLUMN_TYPES[engine].plantId, primary: true },
      name: { type: 'text' },
      tag: { type: 'text', nullable: true },
      createdByTokenId: { name: 'created_by_token_id', type: 'varchar', length: 64, nullable: true },
      createdAt: { name: 'created_at', type: COLUMN_TYPES[engine].instant },
    },
  });
}

export const PlantEntity: Record<Engine, EntitySchema<PlantRow>> = {
  sqlite: plantSchema('sqlite'),
  postgres: plantSchema('postgres'),
};
