import type { SqlRunner, Statement } from '../connection/sql-runner.js';

/**
 * Every write to the plant table (creates, imports, changes, deletions) is issued here, as one
 * transaction per call; the rows `write` returned. What every plant write transaction must
 * also do is added to the statements here, once, for all of them. (The change feed's stamp
 * needs no statement of its own: each write statement sets it, plant-sql.ts.)
 */
export async function commitPlantWrite<Row>(statements: SqlRunner, write: Statement): Promise<Row[]> {
  const results = await statements.transaction([write]);
  return results.at(-1) as Row[];
}
