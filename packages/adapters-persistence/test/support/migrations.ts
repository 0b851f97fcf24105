import type { DataSource } from 'typeorm';

/**
 * Undoes the newest migrations until `name` is undone too: the store as a release before that
 * migration left it, whatever migrations came after.
 */
export async function undoMigrationsThrough(dataSource: DataSource, name: string): Promise<void> {
  const placeholder = dataSource.options.type === 'postgres' ? '$1' : '?';
  for (;;) {
    const applied = await dataSource.query<unknown[]>(`SELECT name FROM migrations WHERE name = ${placeholder}`, [
      name,
    ]);
    if (applied.length === 0) return;
    await dataSource.undoLastMigration();
  }
}
