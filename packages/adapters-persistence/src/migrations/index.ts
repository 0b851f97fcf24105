import { CreatePlantsAndTokens1763712000000 } from './1763712000000-create-plants-and-tokens.js';

/** Every migration in order; listed, not globbed, so the build is the single source. */
export const migrations = [CreatePlantsAndTokens1763712000000];
