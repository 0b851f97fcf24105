import type { DataSource } from 'typeorm';

/**
 * Takes a fully migrated store back to before the migration named (its class's `name`):
 * that one and every later one undone, newest first, however many follow it.
 */
export async function undoMigrationsFrom(dataSource: DataSource, name: string): Promise<void> {
  const names = dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
  const index = names.indexOf(name);
  if (index < 0) throw new Error(`no migration named ${name}`);
  for (let undone = names.length; undone > index; undone--) await dataSource.undoLastMigration();
}
