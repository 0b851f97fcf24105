import { Module, type DynamicModule } from '@nestjs/common';
import { PlantStoreHttpModule, WebPageModule } from '@plantstore/adapters-http';
import type { AppConfig } from './config.js';
import { PlantStoreModule } from './plant-store.module.js';
import { webPageDirectory } from './web-page-directory.js';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    const core = PlantStoreModule.forRoot(config);
    return {
      module: AppModule,
      imports: [
        core,
        PlantStoreHttpModule.register({ imports: [core] }),
        ...(config.webPage ? [WebPageModule.serve(webPageDirectory)] : []),
      ],
    };
  }
}
