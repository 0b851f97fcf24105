import type { QueryRunner } from 'typeorm';

/** The callback form of node-postgres' query, which the connection's query deadline leaves alone. */
interface CallbackQuery {
  query(sql: string, callback: (error: Error | null) => void): void;
}

/**
 * Runs a statement that takes longer than a request's statement (building an index over
 * every plant) inside the migration's transaction. PostgreSQL: the transaction's
 * statement_timeout is lifted (SET LOCAL: until it ends), and the statement goes through the
 * callback form of the driver's query, which postgres-client.ts gives no deadline: that
 * deadline exists to cut dead connections during service, not to stop an upgrade.
 * SQLite has neither limit.
 */
export async function runLongStatement(queryRunner: QueryRunner, sql: string): Promise<void> {
  if (queryRunner.connection.driver.options.type !== 'postgres') {
    await queryRunner.query(sql);
    return;
  }
  await queryRunner.query('SET LOCAL statement_timeout = 0');
  const client = (await queryRunner.connect()) as CallbackQuery;
  await new Promise<void>((resolve, reject) =>
    client.query(sql, (error) => (error === null || error === undefined ? resolve() : reject(error))),
  );
}
