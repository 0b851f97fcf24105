import {
  Inject,
  Module,
  type DynamicModule,
  type FactoryProvider,
  type ModuleMetadata,
  type NestModule,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, HttpAdapterHost } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import type { FastifyAdapter } from '@nestjs/platform-fastify';
import { TerminusModule } from '@nestjs/terminus';
import {
  AuthenticateToken,
  ChangePlant,
  CreatePlant,
  FollowChanges,
  GetPlant,
  ListPlants,
  RemovePlant,
  systemClock,
} from '@plantstore/domain';
import { BearerAuthGuard } from './auth/bearer-auth.guard.js';
import { BearerStrategy } from './auth/bearer.strategy.js';
import { ScopeGuard } from './auth/scope.guard.js';
import { JsonBodyPipe } from './body/json-body.pipe.js';
import { CHANGE_STREAM_BOUNDS } from './plants/changes/change-stream-bounds.js';
import { ChangeStreamHub } from './plants/changes/change-stream-hub.js';
import { FollowChangesController } from './plants/changes/follow-changes.controller.js';
import { refuseOtherMethodsOnChanges } from './plants/changes/other-methods.js';
import { HealthController } from './health/health.controller.js';
import { Lifecycle } from './health/lifecycle.js';
import { RouteTemplates } from './http/route-templates.js';
import { FailedAuthLimiter } from './limits/failed-auth-limiter.js';
import { InMemoryLimiterStorage } from './limits/in-memory-limiter-storage.js';
import { TokenRateLimitGuard } from './limits/token-rate-limit.guard.js';
import { MetricsController } from './observability/metrics.controller.js';
import { PlantStoreMetrics } from './observability/plant-store-metrics.js';
import { DocsController } from './openapi/docs.controller.js';
import { OpenApiController, OpenApiDocumentStore } from './openapi/openapi.controller.js';
import { ErrorFilter } from './pipeline/error.filter.js';
import { RequestGuards } from './pipeline/request-guards.js';
import { installRequestPipeline } from './pipeline/request-pipeline.js';
import { CreatePlantController } from './plants/create/create-plant.controller.js';
import { NewPlantPipe } from './plants/create/new-plant.pipe.js';
import { GetPlantController } from './plants/get/get-plant.controller.js';
import { ListPlantsController } from './plants/list/list-plants.controller.js';
import { PlantIdPipe } from './plants/plant-id.pipe.js';
import { RemovePlantController } from './plants/remove/remove-plant.controller.js';
import { PlantReplacementPipe } from './plants/replace/plant-replacement.pipe.js';
import { ReplacePlantController } from './plants/replace/replace-plant.controller.js';
import {
  AUTHENTICATE_TOKEN,
  CHANGE_PLANT,
  CREATE_PLANT,
  FOLLOW_CHANGES,
  GET_PLANT,
  HTTP_OPTIONS,
  LIST_PLANTS,
  REMOVE_PLANT,
  type HttpOptions,
} from './ports/di-tokens.js';
import { HTTP_EVENTS, type HttpEvents } from './ports/http-events.js';
import { LIMITER_STORAGE } from './ports/limiter-storage.js';

export interface PlantStoreHttpModuleOptions {
  readonly imports?: ModuleMetadata['imports'];
  readonly inject?: FactoryProvider['inject'];
  /** The adapter's options from the injected providers: the ports it serves and its limits. */
  readonly useFactory: (...injected: never[]) => HttpOptions | Promise<HttpOptions>;
}

/** A use case built from the options' ports. */
function useCase<T>(provide: symbol, build: (options: HttpOptions) => T): FactoryProvider<T> {
  return { provide, useFactory: build, inject: [HTTP_OPTIONS] };
}

/**
 * The HTTP adapter: the Plant Store API on Nest and Fastify. It builds its use cases from the
 * ports it is given and installs its own request pipeline (pipeline/request-pipeline.ts), so
 * importing it is all an app does; `createHttpApp` makes the app around it.
 */
@Module({})
export class PlantStoreHttpModule implements NestModule {
  constructor(
    private readonly adapterHost: HttpAdapterHost<FastifyAdapter>,
    private readonly routes: RouteTemplates,
    private readonly lifecycle: Lifecycle,
    @Inject(HTTP_OPTIONS) private readonly options: HttpOptions,
    @Inject(HTTP_EVENTS) private readonly events: HttpEvents,
  ) {}

  /** Nest calls this once the HTTP adapter exists and before it registers any route. */
  configure(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance();
    installRequestPipeline(fastify, {
      options: this.options,
      events: this.events,
      lifecycle: this.lifecycle,
      routes: this.routes,
    });
    refuseOtherMethodsOnChanges(fastify);
  }

  static forRootAsync(options: PlantStoreHttpModuleOptions): DynamicModule {
    return {
      module: PlantStoreHttpModule,
      imports: [PassportModule, TerminusModule.forRoot({ logger: false }), ...(options.imports ?? [])],
      // The plant routes, one folder each (README: adding a route), then the operators' routes.
      controllers: [
        FollowChangesController,
        CreatePlantController,
        ListPlantsController,
        GetPlantController,
        ReplacePlantController,
        RemovePlantController,
        HealthController,
        OpenApiController,
        DocsController,
        MetricsController,
      ],
      providers: [
        { provide: HTTP_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
        useCase(CREATE_PLANT, ({ plants, clock }) => new CreatePlant(plants, clock ?? systemClock)),
        useCase(GET_PLANT, ({ plants }) => new GetPlant(plants)),
        useCase(LIST_PLANTS, ({ plants }) => new ListPlants(plants)),
        useCase(CHANGE_PLANT, ({ plants, clock }) => new ChangePlant(plants, clock ?? systemClock)),
        useCase(REMOVE_PLANT, ({ plants, clock }) => new RemovePlant(plants, clock ?? systemClock)),
        useCase(FOLLOW_CHANGES, ({ changes }) => new FollowChanges(changes)),
        useCase(
          AUTHENTICATE_TOKEN,
          ({ tokens, tokenSecrets, clock }) => new AuthenticateToken(tokens, tokenSecrets, clock ?? systemClock),
        ),
        {
          provide: LIMITER_STORAGE,
          useFactory: ({ limiterStorage }: HttpOptions) => limiterStorage ?? new InMemoryLimiterStorage(),
          inject: [HTTP_OPTIONS],
        },
        {
          provide: PlantStoreMetrics,
          useFactory: ({ limiterStorage, outbox, feedLag }: HttpOptions) => {
            const metrics = new PlantStoreMetrics();
            if (limiterStorage !== undefined) metrics.watchLimiterStorage(limiterStorage);
            if (outbox !== undefined) metrics.watchOutbox(outbox);
            if (feedLag !== undefined) metrics.watchFeedLag(feedLag);
            return metrics;
          },
          inject: [HTTP_OPTIONS],
        },
        { provide: HTTP_EVENTS, useExisting: PlantStoreMetrics },
        {
          provide: ChangeStreamHub,
          useFactory: (options: HttpOptions, authenticateToken: AuthenticateToken, events: HttpEvents) =>
            new ChangeStreamHub({
              feed: options.changes,
              authenticateToken,
              events,
              maxStreams: options.maxChangeStreams,
              tickMs: options.changeStreamTickMs,
              bounds: CHANGE_STREAM_BOUNDS,
            }),
          inject: [HTTP_OPTIONS, AUTHENTICATE_TOKEN, HTTP_EVENTS],
        },
        BearerStrategy,
        JsonBodyPipe,
        NewPlantPipe,
        PlantReplacementPipe,
        PlantIdPipe,
        FailedAuthLimiter,
        Lifecycle,
        OpenApiDocumentStore,
        RouteTemplates,
        BearerAuthGuard,
        ScopeGuard,
        TokenRateLimitGuard,
        // One global guard and one filter: the checks of step 2 run in the order RequestGuards states.
        { provide: APP_GUARD, useClass: RequestGuards },
        { provide: APP_FILTER, useClass: ErrorFilter },
      ],
      exports: [PlantStoreMetrics, Lifecycle, OpenApiDocumentStore],
    };
  }
}
