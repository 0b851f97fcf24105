import { EntitySchema } from 'typeorm';

/** A plant as stored: the row shape, kept apart from the domain's Plant. */
export interface PlantRow {
  id: string;
  name: string;
  tag: string | null;
  createdByTokenId: string | null;
  createdAt: string;
}

export const PlantSchema = new EntitySchema<PlantRow>({
  name: 'Plant',
  tableName: 'plant',
  columns: {
    id: { type: 'bigint', primary: true },
    name: { type: 'text' },
    tag: { type: 'text', nullable: true },
    createdByTokenId: { name: 'created_by_token_id', type: 'varchar', length: 64, nullable: true },
    createdAt: { name: 'created_at', type: 'varchar' },
  },
});
