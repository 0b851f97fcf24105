import type { DataSource } from 'typeorm';

export interface PlantRowText {
  readonly id: string;
  readonly name: string;
  readonly tag: string | null;
}

/** Every plant as the database holds it, ids as decimal text so nothing passes through Number. */
export async function plantRows(dataSource: DataSource): Promise<PlantRowText[]> {
  const rows: PlantRowText[] = await dataSource.query('SELECT CAST(id AS TEXT) AS id, name, tag FROM plant');
  // Sorted as integers, in bigint, whatever the engine's text collation.
  return rows.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0));
}

export async function provenanceRows(
  dataSource: DataSource,
): Promise<Array<{ id: string; createdByTokenId: string | null; createdAt: string }>> {
  const rows: Array<{ id: string; created_by: string | null; created_at: string | Date }> = await dataSource.query(
    'SELECT CAST(id AS TEXT) AS id, created_by_token_id AS created_by, created_at FROM plant',
  );
  // SQLite hands back the ISO text, PostgreSQL a Date: compare instants.
  return rows.map((row) => ({
    id: row.id,
    createdByTokenId: row.created_by,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

/** Empties the store between tests (plants first: they reference tokens). */
export async function clearStore(dataSource: DataSource): Promise<void> {
  await dataSource.query('DELETE FROM plant');
  await dataSource.query('DELETE FROM plant_outbox');
  await dataSource.query('DELETE FROM api_token');
}
