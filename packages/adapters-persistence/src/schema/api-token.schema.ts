import { EntitySchema } from 'typeorm';
import type { Engine } from '../config/database-config.js';
import { COLUMN_TYPES } from './column-types.js';

export interface ApiTokenRow {
  id: string;
  name: string;
  tokenHash: string;
  /** Space-separated scope names. */
  scopes: string;
  /** Written as ISO-8601 text; read back as that text on SQLite, as a Date on PostgreSQL. */
  createdAt: Date | string;
  expiresAt: Date | string | null;
  revokedAt: Date | string | null;
}

function apiTokenSchema(engine: Engine): EntitySchema<ApiTokenRow> {
  const instant = COLUMN_TYPES[engine].instant;
  return new EntitySchema<ApiTokenRow>({
    name: 'ApiToken',
    tableName: 'api_token',
    columns: {
      id: { type: 'varchar', length: 64, primary: true },
      name: { type: 'varchar', length: 400 },
      tokenHash: { name: 'token_hash', type: 'varchar', length: 64, unique: true },
      scopes: { type: 'varchar', length: 200 },
      createdAt: { name: 'created_at', type: instant },
      expiresAt: { name: 'expires_at', type: instant, nullable: true },
      revokedAt: { name: 'revoked_at', type: instant, nullable: true },
    },
  });
}

export const ApiTokenEntity: Record<Engine, EntitySchema<ApiTokenRow>> = {
  sqlite: apiTokenSchema('sqlite'),
  postgres: apiTokenSchema('postgres'),
};
