import { Module, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { BearerAuthGuard } from './auth/bearer-auth.guard.js';
import { BearerStrategy } from './auth/bearer.strategy.js';
import { ScopeGuard } from './auth/scope.guard.js';
import { JsonBodyPipe } from './body/json-body.pipe.js';
import { NewPlantPipe } from './plants/new-plant.pipe.js';
import { PlantsController } from './plants/plants.controller.js';

/**
 * The HTTP adapter. `imports` must provide CREATE_PLANT, AUTHENTICATE_TOKEN and
 * HTTP_OPTIONS (see tokens.ts): the composition root decides what backs them.
 */
@Module({})
export class PlantStoreHttpModule {
  static register(options: { imports: NonNullable<ModuleMetadata['imports']> }): DynamicModule {
    return {
      module: PlantStoreHttpModule,
      imports: [PassportModule, ...options.imports],
      controllers: [PlantsController],
      providers: [
        BearerStrategy,
        JsonBodyPipe,
        NewPlantPipe,
        // Order matters: authenticate first, then check the scope.
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        { provide: APP_GUARD, useClass: ScopeGuard },
      ],
    };
  }
}
