import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Principal } from '@plantstore/domain';

export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal =>
    context.switchToHttp().getRequest<{ user: Principal }>().user,
);
