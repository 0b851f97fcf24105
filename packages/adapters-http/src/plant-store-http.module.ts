import { Module, type DynamicModule, type ModuleMetadata, type OnApplicationBootstrap } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TerminusModule } from '@nestjs/terminus';
import { BearerAuthGuard } from './auth/bearer-auth.guard.js';
import { BearerStrategy } from './auth/bearer.strategy.js';
import { ScopeGuard } from './auth/scope.guard.js';
import { JsonBodyPipe } from './body/json-body.pipe.js';
import { HealthController } from './health/health.controller.js';
import { Lifecycle } from './health/lifecycle.js';
import { FailedAuthLimiter } from './limits/failed-auth-limiter.js';
import { InMemoryLimiterStorage } from './limits/in-memory-limiter-storage.js';
import { LIMITER_STORAGE, type LimiterStorage } from './ports/limiter-storage.js';
import { TokenRateLimitGuard } from './limits/token-rate-limit.guard.js';
import { PlantStoreMetrics } from './observability/plant-store-metrics.js';
import { MetricsController } from './observability/metrics.controller.js';
import { DocsController } from './openapi/docs.controller.js';
import { OpenApiController, OpenApiDocumentStore } from './openapi/openapi.controller.js';
import { NewPlantPipe } from './plants/new-plant.pipe.js';
import { PlantIdPipe } from './plants/plant-id.pipe.js';
import { PlantsController } from './plants/plants.controller.js';
import { RequestPipelineInstalled } from './pipeline/request-pipeline-installed.js';
import { HTTP_OPTIONS, type HttpOptions } from './ports/di-tokens.js';
import { HTTP_EVENTS } from './ports/http-events.js';

export interface PlantStoreHttpModuleOptions {
  /** Must provide CREATE_PLANT, GET_PLANT, LIST_PLANTS, AUTHENTICATE_TOKEN, READINESS_PROBE and HTTP_OPTIONS (ports/di-tokens.ts). */
  readonly imports: NonNullable<ModuleMetadata['imports']>;
}

/**
 * The HTTP adapter; the composition root decides what backs each port it uses. Its request
 * pipeline (guards included) is installed on the app by configureHttp, before app.init().
 */
@Module({})
export class PlantStoreHttpModule implements OnApplicationBootstrap {
  constructor(private readonly pipeline: RequestPipelineInstalled) {}

  onApplicationBootstrap(): void {
    // Without the pipeline's guards every route would answer without a token: refuse to start.
    if (!this.pipeline.installed)
      throw new Error('the request pipeline is not installed: call configureHttp(app) before app.init()');
  }

  static register(options: PlantStoreHttpModuleOptions): DynamicModule {
    return {
      module: PlantStoreHttpModule,
      imports: [PassportModule, TerminusModule.forRoot({ logger: false }), ...options.imports],
      controllers: [PlantsController, HealthController, OpenApiController, DocsController, MetricsController],
      providers: [
        BearerStrategy,
        JsonBodyPipe,
        NewPlantPipe,
        PlantIdPipe,
        FailedAuthLimiter,
        Lifecycle,
        OpenApiDocumentStore,
        {
          provide: PlantStoreMetrics,
          useFactory: (limiterStorage: LimiterStorage, http: HttpOptions) => {
            const metrics = new PlantStoreMetrics();
            metrics.watchLimiterStorage(limiterStorage);
            if (http.outbox !== undefined) metrics.watchOutbox(http.outbox);
            return metrics;
          },
          inject: [LIMITER_STORAGE, HTTP_OPTIONS],
        },
        {
          provide: LIMITER_STORAGE,
          useFactory: (http: HttpOptions) => http.limiterStorage ?? new InMemoryLimiterStorage(),
          inject: [HTTP_OPTIONS],
        },
        { provide: HTTP_EVENTS, useExisting: PlantStoreMetrics },
        // Installed as global guards, in the order of checks, by installRequestPipeline.
        BearerAuthGuard,
        ScopeGuard,
        TokenRateLimitGuard,
        RequestPipelineInstalled,
      ],
      exports: [PlantStoreMetrics, Lifecycle, OpenApiDocumentStore],
    };
  }
}
