import type { Engine } from '../config/database-config.js';

/**
 * The column types that differ by engine, as the migrations create them: PostgreSQL keeps
 * instants as timestamptz and ids as bigint; SQLite keeps instants as ISO-8601 text and the id
 * as INTEGER PRIMARY KEY, its 64-bit rowid. TypeORM has no one type name for both (it refuses
 * timestamptz on SQLite), hence one entity schema per engine.
 */
export const COLUMN_TYPES = {
  sqlite: { instant: 'text', plantId: 'integer' },
  postgres: { instant: 'timestamptz', plantId: 'bigint' },
} as const satisfies Record<Engine, { instant: string; plantId: string }>;
