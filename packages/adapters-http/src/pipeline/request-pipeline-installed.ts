import { Injectable } from '@nestjs/common';

/** Set by installRequestPipeline; PlantStoreHttpModule will not start while it is false. */
@Injectable()
export class RequestPipelineInstalled {
  installed = false;
}
