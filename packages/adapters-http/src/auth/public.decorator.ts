import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'plantstore:isPublic';

/** Opts a route out of the global bearer guard (health, docs, metrics). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
