import { CreatePlantsAndTokens1763712000000 } from './1763712000000-create-plants-and-tokens.js';
import { AddPlantCreatedOutbox1763798400000 } from './1763798400000-add-plant-created-outbox.js';
import { AddPlantEventsSwitch1763884800000 } from './1763884800000-add-plant-events-switch.js';
import { AddPlantVersionsAndTombstones1764057600000 } from './1764057600000-add-plant-versions-and-tombstones.js';
import { AddPlantChangeFeed1764201600000 } from './1764201600000-add-plant-change-feed.js';
import { AddPlantNameSearch1764288000000 } from './1764288000000-add-plant-name-search.js';
import { IndexPlantNamesInPasses1764374400000 } from './1764374400000-index-plant-names-in-passes.js';
import { IndexLivePlantsByTag1764460800000 } from './1764460800000-index-live-plants-by-tag.js';

/** Every migration in order; listed, not globbed, so the build is the single source. */
export const migrations = [
  CreatePlantsAndTokens1763712000000,
  AddPlantCreatedOutbox1763798400000,
  AddPlantEventsSwitch1763884800000,
  AddPlantVersionsAndTombstones1764057600000,
  AddPlantChangeFeed1764201600000,
  AddPlantNameSearch1764288000000,
  IndexPlantNamesInPasses1764374400000,
  IndexLivePlantsByTag1764460800000,
];
