import type { Database, Statement as PreparedStatement } from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import type { Engine } from '../config/database-config.js';
import { engineOf } from './create-data-source.js';
import { retryWhileLocked } from './lock-wait.js';
import { asStorageError } from './storage-errors.js';

/** One statement with its parameters, ready for `DataSource.query`. */
export interface Statement {
  readonly sql: string;
  readonly parameters: unknown[];
}

export interface SqlRunnerOptions {
  /**
   * How long a statement may wait for a lock held by another process, retried between
   * event-loop turns (lockWaitOf(config) in lock-wait.ts). 0 or absent: it fails at once.
   */
  readonly lockWaitMs?: number;
}

// Prepared statements kept for transactions of several statements, as TypeORM keeps its own.
const PREPARED_KEPT = 1000;

/**
 * Runs this adapter's statements on one store: waiting for a lock held by another process off
 * the event loop (lock-wait.ts), and reporting an outage as the domain's StorageUnavailableError
 * (storage-errors.ts).
 */
export class SqlRunner {
  readonly engine: Engine;
  private readonly lockWaitMs: number;
  private readonly prepared = new Map<string, PreparedStatement>();

  constructor(
    readonly dataSource: DataSource,
    { lockWaitMs = 0 }: SqlRunnerOptions = {},
  ) {
    this.engine = engineOf(dataSource);
    this.lockWaitMs = lockWaitMs;
  }

  /** The rows the statement returned (its RETURNING rows, for a write); one statement is its own transaction. */
  run<Row>({ sql, parameters }: Statement): Promise<Row[]> {
    return this.call(async () => rowsOf<Row>(await this.dataSource.query<unknown>(sql, parameters)));
  }

  /**
   * Statements as ONE transaction: all of them commit, or none. The rows each returned, in order.
   * On SQLite the statements run synchronously on the one connection, so nothing is awaited
   * inside the transaction and no other request's statement can land in it
   * (docs/storage.md#one-writer); on PostgreSQL, on a pooled connection of their own.
   */
  async transaction(statements: readonly Statement[]): Promise<unknown[][]> {
    if (statements.length === 1) return [await this.run(statements[0]!)];
    if (this.engine === 'sqlite') return this.call(async () => this.sqliteTransaction(statements));
    return this.call(() => this.postgresTransaction(statements));
  }

  /** Any other call on the data source (TypeORM's own API), with the same lock wait and error translation. */
  async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await retryWhileLocked(work, this.lockWaitMs);
    } catch (error) {
      throw asStorageError(error);
    }
  }

  private sqliteTransaction(statements: readonly Statement[]): unknown[][] {
    const database = (this.dataSource.driver as unknown as { databaseConnection?: Database }).databaseConnection;
    // better-sqlite3's own words for it, which storage-errors.ts reads as "database closed".
    if (database?.open !== true) throw new Error('The database connection is not open');
    // IMMEDIATE: the write lock is taken at BEGIN, not halfway through, where it could be refused.
    return database
      .transaction(() =>
        statements.map(({ sql, parameters }) => {
          const prepared = this.prepare(database, sql);
          // As TypeORM binds them: better-sqlite3 takes no booleans.
          const values = parameters.map((value) => (typeof value === 'boolean' ? Number(value) : value));
          return prepared.reader ? prepared.all(...values) : (prepared.run(...values), []);
        }),
      )
      .immediate();
  }

  private prepare(database: Database, sql: string): PreparedStatement {
    let prepared = this.prepared.get(sql);
    if (prepared === undefined) {
      prepared = database.prepare(sql);
      this.prepared.set(sql, prepared);
      if (this.prepared.size > PREPARED_KEPT) this.prepared.delete(this.prepared.keys().next().value!);
    }
    return prepared;
  }

  private async postgresTransaction(statements: readonly Statement[]): Promise<unknown[][]> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      const results: unknown[][] = [];
      for (const { sql, parameters } of statements) results.push(rowsOf(await runner.query(sql, parameters)));
      await runner.commitTransaction();
      return results;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }
}

/** TypeORM answers an UPDATE or DELETE on PostgreSQL as [rows, affected count]. */
function rowsOf<Row>(result: unknown): Row[] {
  return (isRowsAndCount(result) ? result[0] : result) as Row[];
}

function isRowsAndCount(result: unknown): result is [unknown[], number] {
  return Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number';
}
