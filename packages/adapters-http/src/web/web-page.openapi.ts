import { ApiExcludeController } from '@nestjs/swagger';
import { describeController } from '../openapi/describe-controller.js';
import { WebPageController } from './web-page.controller.js';

/** The catalogue page and its assets are not operations of the API: the document leaves them out. */
export function describeWebPage(): void {
  describeController(WebPageController, { controller: [ApiExcludeController()] });
}
