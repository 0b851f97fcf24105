import {
  Inject,
  Injectable,
  Logger,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type FactoryProvider,
  type ModuleMetadata,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { PlantEventRelay, type PlantEventRelayConfig } from '../plant-event-relay.js';

export interface PlantEventRelayModuleOptions {
  readonly imports?: ModuleMetadata['imports'];
  readonly inject?: FactoryProvider['inject'];
  /** The relay's configuration from the injected providers; undefined runs no relay (no NATS configured). */
  readonly useFactory: (...injected: never[]) => Omit<PlantEventRelayConfig, 'log'> | undefined;
}

/**
 * Starts the relay once the app is up, before it listens (no plant is created between the
 * events switch and the relay), and stops it before the database closes. Not part of
 * readiness: a NATS outage delays events, never creates.
 */
@Injectable()
class PlantEventRelayLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@Inject(PlantEventRelay) private readonly relay: PlantEventRelay | undefined) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.relay?.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.relay?.stop();
  }
}

/** Provides `PlantEventRelay` (or undefined when no NATS is configured) and runs it with the app. */
@Module({})
export class PlantEventRelayModule {
  static forRootAsync(options: PlantEventRelayModuleOptions): DynamicModule {
    const logger = new Logger('PlantEventRelay');
    return {
      module: PlantEventRelayModule,
      imports: options.imports ?? [],
      providers: [
        {
          provide: PlantEventRelay,
          useFactory: (...injected: never[]) => {
            const config = options.useFactory(...injected);
            return (
              config &&
              new PlantEventRelay({ ...config, log: { warn: (m) => logger.warn(m), info: (m) => logger.log(m) } })
            );
          },
          inject: [...(options.inject ?? [])],
        },
        PlantEventRelayLifecycle,
      ],
      exports: [PlantEventRelay],
    };
  }
}
