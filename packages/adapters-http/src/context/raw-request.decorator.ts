import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { requestOf } from './request-of.js';

/**
 * The whole request as a handler parameter, for pipes that read it after the guards passed
 * (a body, a path id checked before the body): `RawRequest(undefined, ...pipes)`.
 */
export const RawRequest = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  requestOf<unknown>(context),
);
