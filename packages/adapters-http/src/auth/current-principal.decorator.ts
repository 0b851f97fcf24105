import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Principal } from '@plantstore/domain';
import { requestOf } from '../context/request-of.js';

export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal => requestOf<{ user: Principal }>(context).user,
);
