import { SqlStore, type DatabaseConfig, type SqlPlantEventOutbox } from '@plantstore/adapters-persistence';
import {
  ExportPlants,
  ImportPlants,
  IssueToken,
  ListTokens,
  RevokeToken,
  systemClock,
  type Clock,
} from '@plantstore/domain';

/** The use cases the commands call, wired to one open database. */
export interface Store {
  readonly clock: Clock;
  readonly issueToken: IssueToken;
  readonly listTokens: ListTokens;
  readonly revokeToken: RevokeToken;
  importPlants(batchSize: number): ImportPlants;
  readonly exportPlants: ExportPlants;
  /** The plant events switch and outbox (an adapter's: the domain has no say in it). */
  readonly plantEvents: Pick<SqlPlantEventOutbox, 'eventsEnabled' | 'enableEvents' | 'disableEvents' | 'backlog'>;
  /** Closes the database; always called before the process exits. */
  close(): Promise<void>;
}

/** Composition root of the CLI: the same adapters as the server, without Nest. */
export async function openStore(config: DatabaseConfig): Promise<Store> {
  const store = await SqlStore.open(config);
  const { plants, tokens, tokenSecrets } = store;
  return {
    clock: systemClock,
    issueToken: new IssueToken(tokens, tokenSecrets, systemClock),
    listTokens: new ListTokens(tokens),
    revokeToken: new RevokeToken(tokens, systemClock),
    importPlants: (batchSize) => new ImportPlants(plants, systemClock, batchSize),
    exportPlants: new ExportPlants(plants),
    plantEvents: store.events,
    close: () => store.close(),
  };
}
