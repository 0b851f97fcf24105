import { isScope, type ApiToken, type Scope, type StoredApiToken, type TokenRepository } from '@plantstore/domain';
import type { DataSource, Repository } from 'typeorm';
import { SqlRunner, type SqlRunnerOptions } from '../connection/sql-runner.js';
import { ApiTokenEntity, type ApiTokenRow } from '../schema/api-token.schema.js';

export class TypeOrmTokenRepository implements TokenRepository {
  private readonly rows: Repository<ApiTokenRow>;
  private readonly statements: SqlRunner;

  constructor(dataSource: DataSource, options: SqlRunnerOptions = {}) {
    this.statements = new SqlRunner(dataSource, options);
    this.rows = dataSource.getRepository(ApiTokenEntity[this.statements.engine]);
  }

  /** Every statement waits for locks held elsewhere off the event loop, and an outage is a storage error (sql-runner.ts). */
  private run<T>(statement: () => Promise<T>): Promise<T> {
    return this.statements.call(statement);
  }

  async add(token: StoredApiToken): Promise<void> {
    await this.run(() => this.rows.insert(toRow(token)));
  }

  async findByHash(hash: string): Promise<StoredApiToken | undefined> {
    const row = await this.run(() => this.rows.findOneBy({ tokenHash: hash }));
    return row === null ? undefined : toToken(row);
  }

  async list(): Promise<ApiToken[]> {
    const rows = await this.run(() => this.rows.find({ order: { createdAt: 'ASC', id: 'ASC' } }));
    return rows.map((row) => {
      const { hash: _hash, ...token } = toToken(row);
      return token;
    });
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    // One conditional UPDATE: concurrent revocations cannot overwrite the first time.
    await this.run(() =>
      this.rows
        .createQueryBuilder()
        .update()
        .set({ revokedAt: at.toISOString() })
        .where('id = :id AND revoked_at IS NULL', { id })
        .execute(),
    );
    return this.run(() => this.rows.existsBy({ id }));
  }
}

function toRow(token: StoredApiToken): ApiTokenRow {
  return {
    id: token.id,
    name: token.name,
    tokenHash: token.hash,
    scopes: token.scopes.join(' '),
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  };
}

function toToken(row: ApiTokenRow): StoredApiToken {
  return {
    id: row.id,
    name: row.name,
    hash: row.tokenHash,
    scopes: row.scopes.split(' ').filter((s): s is Scope => isScope(s)),
    createdAt: new Date(row.createdAt),
    expiresAt: row.expiresAt === null ? undefined : new Date(row.expiresAt),
    revokedAt: row.revokedAt === null ? undefined : new Date(row.revokedAt),
  };
}
