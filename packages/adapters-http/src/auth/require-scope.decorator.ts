import { SetMetadata } from '@nestjs/common';
import type { Scope } from '@plantstore/domain';

export const REQUIRED_SCOPE = 'plantstore:requiredScope';

export const RequireScope = (scope: Scope) => SetMetadata(REQUIRED_SCOPE, scope);
