import { TypeOrmTokenRepository } from '@plantstore/adapters-persistence';
import type { DataSource } from 'typeorm';
import { testEngines } from '../engines.js';
import { clearStore } from '../support/rows.js';
import { useFreshStore } from '../support/use-store.js';

interface ColumnShape {
  readonly name: string;
  readonly type: string;
  readonly length: string;
  readonly nullable: boolean;
  readonly primary: boolean;
  readonly unique: boolean;
}

/** Each table's columns as the migrations created them, read back from the database by TypeORM. */
async function migratedColumns(dataSource: DataSource): Promise<Record<string, ColumnShape[]>> {
  const runner = dataSource.createQueryRunner();
  try {
    const tables = await runner.getTables(dataSource.entityMetadatas.map((entity) => entity.tableName));
    return Object.fromEntries(
      tables.map((table) => [
        table.name,
        table.columns
          // SQLite lets a PRIMARY KEY column declared without NOT NULL hold NULL, and reports it
          // nullable; the migration declares none NOT NULL, and every insert names the id.
          .map((c) => ({
            name: c.name,
            type: c.type,
            length: c.length,
            nullable: c.isNullable && !c.isPrimary,
            primary: c.isPrimary,
            unique: c.isUnique,
          }))
          .sort(byName),
      ]),
    );
  } finally {
    await runner.release();
  }
}

/** The same, as the entity schemas declare them. */
function declaredColumns(dataSource: DataSource): Record<string, ColumnShape[]> {
  return Object.fromEntries(
    dataSource.entityMetadatas.map((entity) => [
      entity.tableName,
      entity.columns
        .map((c) => ({
          name: c.databaseName,
          type: dataSource.driver.normalizeType(c),
          length: c.length,
          nullable: c.isNullable,
          primary: c.isPrimary,
          unique: entity.uniques.some((u) => u.columns.length === 1 && u.columns[0] === c),
        }))
        .sort(byName),
    ]),
  );
}

function byName(a: ColumnShape, b: ColumnShape): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

describe.each(testEngines())('entity schemas on $name', (engine) => {
  const open = useFreshStore(engine);

  it('declare every table and column as the migrations create them', async () => {
    const migrated = await migratedColumns(open().dataSource);
    expect(Object.keys(migrated).sort()).toEqual(['api_token', 'plant']);
    expect(declaredColumns(open().dataSource)).toEqual(migrated);
  });

  it('keep token instants exact to the millisecond, stored as the migration types them', async () => {
    await clearStore(open().dataSource);
    const tokens = new TypeOrmTokenRepository(open().dataSource);
    const token = {
      id: 'tok-1',
      name: 'dates',
      hash: 'cd'.repeat(32),
      scopes: ['plants:write' as const],
      createdAt: new Date('2025-06-01T12:00:00.123Z'),
      expiresAt: new Date('2025-07-01T00:00:00.456Z'),
      revokedAt: undefined,
    };
    await tokens.add(token);
    await tokens.revoke(token.id, new Date('2025-06-15T08:30:00.789Z'));

    await expect(tokens.findByHash(token.hash)).resolves.toEqual({
      ...token,
      revokedAt: new Date('2025-06-15T08:30:00.789Z'),
    });
    const [row] = await open().dataSource.query('SELECT created_at, expires_at, revoked_at FROM api_token');
    // SQLite keeps the ISO-8601 text as written; PostgreSQL's timestamptz comes back as a Date.
    const stored =
      engine.name === 'sqlite'
        ? ['2025-06-01T12:00:00.123Z', '2025-07-01T00:00:00.456Z', '2025-06-15T08:30:00.789Z']
        : [
            new Date('2025-06-01T12:00:00.123Z'),
            new Date('2025-07-01T00:00:00.456Z'),
            new Date('2025-06-15T08:30:00.789Z'),
          ];
    expect([row.created_at, row.expires_at, row.revoked_at]).toEqual(stored);
  });
});
