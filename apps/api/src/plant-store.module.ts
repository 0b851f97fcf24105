import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { AUTHENTICATE_TOKEN, CREATE_PLANT, HTTP_OPTIONS, type HttpOptions } from '@plantstore/adapters-http';
import { nodeTokenSecrets, openDataSource, TypeOrmPlantRepository, TypeOrmTokenRepository } from '@plantstore/adapters-persistence';
import { AuthenticateToken, CreatePlant, systemClock, type Clock, type PlantRepository, type TokenRepository } from '@plantstore/domain';
import type { DataSource } from '@plantstore/adapters-persistence';
import type { AppConfig } from './config.js';
import { APP_CONFIG, CLOCK, DATA_SOURCE, PLANT_REPOSITORY, TOKEN_REPOSITORY } from './di-tokens.js';

/** Closes the database after the HTTP server has stopped and in-flight requests finished. */
class DataSourceCloser implements OnApplicationShutdown {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** Every port of the domain bound to its adapter, in one visible place. */
@Module({})
export class PlantStoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: PlantStoreModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: DATA_SOURCE, useFactory: () => openDataSource(config.database) },
        { provide: CLOCK, useValue: systemClock },
        {
          provide: PLANT_REPOSITORY,
          useFactory: (dataSource: DataSource) => new TypeOrmPlantRepository(dataSource),
          inject: [DATA_SOURCE],
        },
        {
          provide: TOKEN_REPOSITORY,
          useFactory: (dataSource: DataSource) => new TypeOrmTokenRepository(dataSource),
          inject: [DATA_SOURCE],
        },
        {
          provide: CREATE_PLANT,
          useFactory: (plants: PlantRepository, clock: Clock) => new CreatePlant(plants, clock),
          inject: [PLANT_REPOSITORY, CLOCK],
        },
        {
          provide: AUTHENTICATE_TOKEN,
          useFactory: (tokens: TokenRepository, clock: Clock) => new AuthenticateToken(tokens, nodeTokenSecrets, clock),
          inject: [TOKEN_REPOSITORY, CLOCK],
        },
        { provide: HTTP_OPTIONS, useValue: { bodyLimitBytes: config.bodyLimitBytes } satisfies HttpOptions },
        DataSourceCloser,
      ],
      exports: [APP_CONFIG, DATA_SOURCE, CREATE_PLANT, AUTHENTICATE_TOKEN, HTTP_OPTIONS],
    };
  }
}
