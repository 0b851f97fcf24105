import type { DataSource } from 'typeorm';
import { lockWaitOf, retryWhileLocked } from './lock-wait.js';
import { asStorageError } from './storage-errors.js';

/** One statement with its parameters, ready for `DataSource.query`. */
export interface Statement {
  readonly sql: string;
  readonly parameters: unknown[];
}

/**
 * Runs this adapter's own statements: waiting for a lock held by another process off the
 * event loop (lock-wait.ts), and reporting an outage as the domain's StorageUnavailableError.
 */
export class SqlRunner {
  private readonly lockWaitMs: number;

  constructor(private readonly dataSource: DataSource) {
    this.lockWaitMs = lockWaitOf(dataSource);
  }

  /** The rows the statement returned (its RETURNING rows, for a write). */
  async run<Row>({ sql, parameters }: Statement): Promise<Row[]> {
    let result: unknown;
    try {
      result = await retryWhileLocked(() => this.dataSource.query<unknown>(sql, parameters), this.lockWaitMs);
    } catch (error) {
      throw asStorageError(error);
    }
    // TypeORM answers an UPDATE or DELETE on PostgreSQL as [rows, affected count].
    return (isRowsAndCount(result) ? result[0] : result) as Row[];
  }
}

function isRowsAndCount(result: unknown): result is [unknown[], number] {
  return Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number';
}
