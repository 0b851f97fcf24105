import { Module, type DynamicModule } from '@nestjs/common';
import { WebPageController } from './web-page.controller.js';
import { WebPageFiles } from './web-page-files.js';

/**
 * Serves the built catalogue page (apps/web) at `/`. The composition root passes the directory
 * the page was built into (adapters cannot import apps) and leaves the module out to run the
 * API alone. A directory without a built page stops the start, naming the missing file.
 */
@Module({})
export class WebPageModule {
  static serve(directory: string): DynamicModule {
    return {
      module: WebPageModule,
      controllers: [WebPageController],
      providers: [{ provide: WebPageFiles, useFactory: () => WebPageFiles.read(directory) }],
    };
  }
}
