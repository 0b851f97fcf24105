import { Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { DatabaseConfig } from '../config/database-config.js';
import { SqlStore, type SqlStoreOptions } from '../store/sql-store.js';

/** Closes the database after the HTTP server has stopped and in-flight requests finished. */
@Injectable()
class SqlStoreCloser implements OnApplicationShutdown {
  constructor(@Inject(SqlStore) private readonly store: SqlStore) {}

  onApplicationShutdown(): Promise<void> {
    return this.store.close();
  }
}

/** Provides `SqlStore`, opened (and migrated) as the app starts and closed as it stops. */
@Module({})
export class SqlStoreModule {
  static forRoot(config: DatabaseConfig, options: SqlStoreOptions = {}): DynamicModule {
    return {
      module: SqlStoreModule,
      providers: [
        {
          provide: SqlStore,
          useFactory: () => {
            const logger = new Logger('SqlStore');
            return SqlStore.open(config, { log: { warn: (message) => logger.warn(message) }, ...options });
          },
        },
        SqlStoreCloser,
      ],
      exports: [SqlStore],
    };
  }
}
