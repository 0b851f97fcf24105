import {
  nodeTokenSecrets,
  openDataSource,
  redactDatabaseUrl,
  TypeOrmPlantCreatedOutbox,
  TypeOrmPlantRepository,
  TypeOrmTokenRepository,
  type DatabaseConfig,
} from '@plantstore/adapters-persistence';
import {
  ExportPlants,
  ImportPlants,
  IssueToken,
  ListTokens,
  RevokeToken,
  StorageUnavailableError,
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
  /** The PlantCreated events switch and outbox (an adapter: the domain has no say in it). */
  readonly plantEvents: Pick<TypeOrmPlantCreatedOutbox, 'eventsEnabled' | 'enableEvents' | 'disableEvents' | 'backlog'>;
  /** Destroys the DataSource; always called before the process exits. */
  close(): Promise<void>;
}

/** Composition root of the CLI: the same adapters as the server, without Nest. */
export async function openStore(config: DatabaseConfig): Promise<Store> {
  let dataSource;
  try {
    dataSource = await openDataSource(config);
  } catch (error) {
    throw new StorageUnavailableError(`${redactDatabaseUrl(config)}: ${withoutSecrets(describe(error), config)}`, {
      cause: error,
    });
  }
  const tokens = new TypeOrmTokenRepository(dataSource);
  const plants = new TypeOrmPlantRepository(dataSource);
  return {
    clock: systemClock,
    issueToken: new IssueToken(tokens, nodeTokenSecrets, systemClock),
    listTokens: new ListTokens(tokens),
    revokeToken: new RevokeToken(tokens, systemClock),
    importPlants: (batchSize) => new ImportPlants(plants, systemClock, batchSize),
    exportPlants: new ExportPlants(plants),
    plantEvents: new TypeOrmPlantCreatedOutbox(dataSource),
    close: () => dataSource.destroy(),
  };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // AggregateError (pg connecting to several addresses) has an empty message of its own.
  if (error.message === '' && error instanceof AggregateError) return error.errors.map(describe).join('; ');
  return error.message;
}

/** Driver messages may quote the connection string; the password must never reach a terminal or a log. */
function withoutSecrets(message: string, config: DatabaseConfig): string {
  if (config.engine !== 'postgres') return message;
  let clean = message.split(config.url).join(redactDatabaseUrl(config));
  try {
    const raw = new URL(config.url).password;
    for (const password of [raw, decodeURIComponent(raw)])
      if (password !== '') clean = clean.split(password).join('***');
  } catch {
    // An unparseable URL cannot be scrubbed more precisely than by the replacement above.
  }
  return clean;
}
